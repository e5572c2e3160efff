import CGio
import Testing

@testable import TaskWidgetNotify

/// What goes on the wire, without a bus: `Notify`'s parameters and the small value types.
struct NotifyParametersTests {
    private func printed(_ value: OpaquePointer?) -> String {
        let sunk = g_variant_ref_sink(value)
        defer { g_variant_unref(sunk) }
        let text = g_variant_print(sunk, 1)!
        defer { g_free(text) }
        return String(cString: text)
    }

    @Test func criticalReminderHasTheSpecifiedSignatureActionsAndHints() {
        let notification = DesktopNotification(
            summary: "Pay rent", body: "today", urgency: .critical,
            actions: [NotificationAction(key: "done", label: "Done"), NotificationAction(key: "snooze", label: "Snooze 10 min")])
        let value = DesktopNotifier.notifyParameters(
            appName: "taskwidget", notification: notification, replacing: nil, escapeBody: false)
        #expect(String(cString: g_variant_get_type_string(value)) == "(susssasa{sv}i)")
        #expect(
            printed(value)
                == "('taskwidget', uint32 0, '', 'Pay rent', 'today', "
                + "['done', 'Done', 'snooze', 'Snooze 10 min'], "
                + "{'urgency': <byte 0x02>, 'category': <'x-taskwidget.reminder'>}, -1)")
    }

    @Test func normalUrgencyReplacesIdAndEmptyActions() {
        let notification = DesktopNotification(summary: "S", urgency: .normal, actions: [], expireTimeout: 0)
        let value = DesktopNotifier.notifyParameters(
            appName: "taskwidget", notification: notification, replacing: NotificationID(rawValue: 7), escapeBody: false)
        #expect(
            printed(value)
                == "('taskwidget', uint32 7, '', 'S', '', @as [], "
                + "{'urgency': <byte 0x01>, 'category': <'x-taskwidget.reminder'>}, 0)")
    }

    @Test func bodyIsEscapedOnlyForMarkupServersAndSummaryNever() {
        let notification = DesktopNotification(summary: "a < b & c", body: "<b>x</b> & y")
        let escaped = DesktopNotifier.notifyParameters(
            appName: "taskwidget", notification: notification, replacing: nil, escapeBody: true)
        #expect(printed(escaped).contains("'a < b & c', '&lt;b&gt;x&lt;/b&gt; &amp; y'"))
        let plain = DesktopNotifier.notifyParameters(
            appName: "taskwidget", notification: notification, replacing: nil, escapeBody: false)
        #expect(printed(plain).contains("'a < b & c', '<b>x</b> & y'"))
    }

    @Test func nulCharactersAreDroppedNotTruncating() {
        let notification = DesktopNotification(summary: "before\0after")
        let value = DesktopNotifier.notifyParameters(
            appName: "taskwidget", notification: notification, replacing: nil, escapeBody: false)
        #expect(printed(value).contains("'beforeafter'"))
    }

    @Test func descriptionNeverShowsTheText() {
        let notification = DesktopNotification(summary: "Secret task", body: "Secret body", urgency: .critical)
        let text = "\(notification) \(String(reflecting: notification))"
        #expect(!text.contains("Secret"))
        #expect(text.contains("11 characters"))
    }

    @Test func closeReasonsFollowTheSpecification() {
        #expect(CloseReason(rawValue: 1) == .expired)
        #expect(CloseReason(rawValue: 2) == .dismissed)
        #expect(CloseReason(rawValue: 3) == .closedByCall)
        #expect(CloseReason(rawValue: 4) == .undefined)
        #expect(CloseReason(rawValue: 9) == .other(9))
    }

    @Test func timeoutsRoundUpToWholeMilliseconds() {
        #expect(GLibEventSource.milliseconds(.zero) == 0)
        #expect(GLibEventSource.milliseconds(.nanoseconds(1)) == 1)
        #expect(GLibEventSource.milliseconds(.milliseconds(1500)) == 1500)
        #expect(GLibEventSource.milliseconds(.seconds(1) + .microseconds(1)) == 1001)
    }
}
