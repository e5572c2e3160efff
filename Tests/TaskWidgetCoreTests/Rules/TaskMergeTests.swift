import Foundation
import Testing
import TaskWidgetCore

/// Minutes after 2026-11-01 10:00 UTC.
private func at(_ minutes: Int64) -> Instant { Instant(secondsSince1970: 1_793_527_200 + minutes * 60) }

extension Instant {
    /// This instant plus a number of milliseconds (fractions of a second in the tables).
    fileprivate func plus(milliseconds: Int64) -> Instant { Instant(millisecondsSince1970: millisecondsSince1970 + milliseconds) }
}

private let base = TaskFields(
    title: "Buy milk", dueDate: at(24 * 60), reminderDate: at(23 * 60), state: .notStarted,
    createdAt: at(-60), modifiedAt: at(0), sortOrder: 1, listID: workList)

private let workList = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!
private let homeList = UUID(uuidString: "0E9D3C56-6A8C-4F43-9E70-2D8E6C1B5A11")!

/// `base` edited by `change` at minute `minute`.
private func edited(_ minute: Int64, from fields: TaskFields = base, _ change: (inout TaskFields) -> Void) -> TaskFields {
    var copy = fields
    change(&copy)
    copy.modifiedAt = at(minute)
    return copy
}

private func completed(_ minute: Int64, from fields: TaskFields = base) -> TaskFields {
    edited(minute, from: fields) {
        $0.state = .completed
        $0.completedAt = at(minute)
    }
}

struct MergeScenario: Sendable, CustomTestStringConvertible {
    var name: String
    var base: TaskFields?
    var local: TaskVersion
    var remote: TaskVersion
    var merged: TaskVersion
    var localAction: Expected
    var remoteAction: Expected
    var conflicts: Set<TaskField> = []

    /// `.write` compares with `merged`.
    enum Expected: Sendable { case none, write, delete }

    var testDescription: String { name }
}

private let scenarios: [MergeScenario] = {
    let localTitle = edited(10) { $0.title = "Buy oat milk" }
    let remoteDue = edited(20) { $0.dueDate = at(48 * 60) }
    let remoteTitleLater = edited(20) { $0.title = "Buy soy milk" }
    let remoteTitleSameTime = edited(10) { $0.title = "Buy soy milk" }
    let both = edited(20) {
        $0.title = "Buy oat milk"
        $0.dueDate = at(48 * 60)
    }
    let completedBase = completed(0)
    return [
        MergeScenario(
            name: "nothing changed", base: base, local: .present(base), remote: .present(base),
            merged: .present(base), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "both sides edit different fields: each keeps its edit", base: base,
            local: .present(localTitle), remote: .present(remoteDue),
            merged: .present(both), localAction: .write, remoteAction: .write),
        MergeScenario(
            name: "both edit the same field: the later edit wins (remote later)", base: base,
            local: .present(localTitle), remote: .present(remoteTitleLater),
            merged: .present(edited(20) { $0.title = "Buy soy milk" }), localAction: .write, remoteAction: .none,
            conflicts: [.title]),
        MergeScenario(
            name: "both edit the same field: the later edit wins (local later)", base: base,
            local: .present(edited(30) { $0.title = "Buy oat milk" }), remote: .present(remoteTitleLater),
            merged: .present(edited(30) { $0.title = "Buy oat milk" }), localAction: .none, remoteAction: .write,
            conflicts: [.title]),
        MergeScenario(
            name: "both edit the same field at the same second: the server's copy wins", base: base,
            local: .present(localTitle.with { $0.modifiedAt = at(10).plus(milliseconds: 700) }),
            remote: .present(remoteTitleSameTime),
            merged: .present(edited(10) { $0.title = "Buy soy milk" }), localAction: .write, remoteAction: .none,
            conflicts: [.title]),
        MergeScenario(
            name: "both make the same edit: no conflict, nothing to write", base: base,
            local: .present(edited(10) { $0.title = "Same" }), remote: .present(edited(20) { $0.title = "Same" }),
            merged: .present(edited(20) { $0.title = "Same" }), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "one completes, the other edits the title later: completed, with the later title", base: base,
            local: .present(completed(10)), remote: .present(remoteTitleLater),
            merged: .present(
                edited(20) {
                    $0.title = "Buy soy milk"
                    $0.state = .completed
                    $0.completedAt = at(10)
                }), localAction: .write, remoteAction: .write),
        MergeScenario(
            name: "one completes, the other reopens earlier: stays completed",
            base: base.with { $0.state = .active },
            local: .present(completed(20, from: base.with { $0.state = .active })),
            remote: .present(edited(10) { $0.state = .notStarted }),
            merged: .present(completed(20)), localAction: .none, remoteAction: .write, conflicts: [.completion]),
        MergeScenario(
            name: "one completes, the other reopens later: stays completed",
            base: base.with { $0.state = .active },
            local: .present(completed(20, from: base.with { $0.state = .active })),
            remote: .present(edited(30) { $0.state = .notStarted }),
            merged: .present(completed(20).with { $0.modifiedAt = at(30) }), localAction: .none, remoteAction: .write,
            conflicts: [.completion]),
        MergeScenario(
            name: "both complete: the earliest completion time", base: base,
            local: .present(completed(30)), remote: .present(completed(20)),
            merged: .present(completed(20).with { $0.modifiedAt = at(30) }), localAction: .write, remoteAction: .none,
            conflicts: [.completion]),
        MergeScenario(
            name: "a reopening (undo) on one side, completion untouched on the other: reopened", base: completedBase,
            local: .present(edited(30, from: completedBase) {
                $0.state = .notStarted
                $0.completedAt = nil
            }),
            remote: .present(edited(40, from: completedBase) { $0.title = "Renamed" }),
            merged: .present(edited(40) { $0.title = "Renamed" }), localAction: .write, remoteAction: .write),
        MergeScenario(
            name: "a reopening on one side, completed again on the other: completed", base: completedBase,
            local: .present(edited(30, from: completedBase) {
                $0.state = .notStarted
                $0.completedAt = nil
            }),
            remote: .present(completed(20)),
            merged: .present(completed(20).with { $0.modifiedAt = at(30) }), localAction: .write, remoteAction: .none,
            conflicts: [.completion]),
        MergeScenario(
            name: "delete, then an edit on the other side: the edit resurrects the task", base: base,
            local: .deleted(at: at(10)), remote: .present(remoteTitleLater),
            merged: .present(remoteTitleLater), localAction: .write, remoteAction: .none),
        MergeScenario(
            name: "an edit, then a delete on the other side: the delete wins", base: base,
            local: .deleted(at: at(30)), remote: .present(remoteTitleLater),
            merged: .deleted(at: at(30)), localAction: .none, remoteAction: .delete),
        MergeScenario(
            name: "edit and delete in the same second: the edit wins (nothing lost)", base: base,
            local: .present(localTitle), remote: .deleted(at: at(10).plus(milliseconds: 500)),
            merged: .present(localTitle), localAction: .none, remoteAction: .write),
        MergeScenario(
            name: "delete against no change: deleted on the other side", base: base,
            local: .present(base), remote: .deleted(at: at(5)),
            merged: .deleted(at: at(5)), localAction: .delete, remoteAction: .none),
        MergeScenario(
            name: "gone from the server (no time) against no change: deleted locally", base: base,
            local: .present(base.with { $0.modifiedAt = at(50) }), remote: .absent,
            merged: .deleted(at: nil), localAction: .delete, remoteAction: .none),
        MergeScenario(
            name: "gone from the server (no time) against a local edit: the edit wins", base: base,
            local: .present(localTitle), remote: .absent,
            merged: .present(localTitle), localAction: .none, remoteAction: .write),
        MergeScenario(
            name: "deleted on both sides: nothing to do", base: base,
            local: .deleted(at: at(30)), remote: .deleted(at: at(20)),
            merged: .deleted(at: at(20)), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "a local tombstone the server never saw: nothing to do", base: nil,
            local: .deleted(at: at(30)), remote: .absent,
            merged: .deleted(at: at(30)), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "new on the local side only: created on the server", base: nil,
            local: .present(base), remote: .absent,
            merged: .present(base), localAction: .none, remoteAction: .write),
        MergeScenario(
            name: "new on the server only: created locally", base: nil,
            local: .absent, remote: .present(base),
            merged: .present(base), localAction: .write, remoteAction: .none),
        MergeScenario(
            name: "the same new task on both sides: one task, nothing to write", base: nil,
            local: .present(base), remote: .present(base.with { $0.modifiedAt = at(0).plus(milliseconds: 900) }),
            merged: .present(base), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "the same new task on both sides, edited differently: one task, later edit per field", base: nil,
            local: .present(localTitle), remote: .present(remoteDue.with { $0.title = "Milk" }),
            merged: .present(remoteDue.with { $0.title = "Milk" }), localAction: .write, remoteAction: .none,
            conflicts: [.title, .due]),
        MergeScenario(
            name: "the same new task on both sides, completed on one: completed", base: nil,
            local: .present(completed(5)), remote: .present(edited(20) { $0.title = "Milk" }),
            merged: .present(completed(5).with {
                $0.title = "Milk"
                $0.modifiedAt = at(20)
            }), localAction: .write, remoteAction: .write, conflicts: [.title, .completion]),
        MergeScenario(
            name: "fractions of a second are no change", base: base,
            local: .present(base.with {
                $0.dueDate = $0.dueDate?.plus(milliseconds: 250)
                $0.modifiedAt = at(0).plus(milliseconds: 500)
            }),
            remote: .present(base),
            merged: .present(base), localAction: .none, remoteAction: .none),
        MergeScenario(
            name: "clearing a field is an edit like any other", base: base,
            local: .present(edited(10) { $0.reminderDate = nil }), remote: .present(remoteDue),
            merged: .present(remoteDue.with { $0.reminderDate = nil }), localAction: .write, remoteAction: .write),
        MergeScenario(
            name: "moved to another list on one side, renamed on the other: both", base: base,
            local: .present(edited(10) { $0.listID = homeList }), remote: .present(remoteTitleLater),
            merged: .present(remoteTitleLater.with { $0.listID = homeList }), localAction: .write, remoteAction: .write),
        MergeScenario(
            name: "moved to different lists on both sides: the later move wins", base: base,
            local: .present(edited(30) { $0.listID = homeList }), remote: .present(edited(20) { $0.listID = nil }),
            merged: .present(edited(30) { $0.listID = homeList }), localAction: .none, remoteAction: .write,
            conflicts: [.list]),
        MergeScenario(
            name: "createdAt takes the earliest", base: nil,
            local: .present(base.with { $0.createdAt = at(-30) }), remote: .present(base),
            merged: .present(base), localAction: .write, remoteAction: .none),
    ]
}()

@Suite("merge rules (SPEC §12, seed 004)")
struct TaskMergeTests {
    @Test("merge", arguments: scenarios)
    func merge(_ scenario: MergeScenario) {
        let result = TaskMerge.merge(base: scenario.base, local: scenario.local, remote: scenario.remote)
        #expect(result.merged == scenario.merged)
        #expect(result.local == action(scenario.localAction, scenario.merged))
        #expect(result.remote == action(scenario.remoteAction, scenario.merged))
        #expect(result.conflicts == scenario.conflicts)
    }

    /// Swapping the sides swaps the actions, except where the server's copy breaks a tie.
    @Test("the rules do not depend on which side is local", arguments: scenarios.filter { !$0.name.contains("same second") && !$0.name.contains("no time") })
    func symmetry(_ scenario: MergeScenario) {
        let forward = TaskMerge.merge(base: scenario.base, local: scenario.local, remote: scenario.remote)
        let swapped = TaskMerge.merge(base: scenario.base, local: scenario.remote, remote: scenario.local)
        #expect(forward.local == swapped.remote)
        #expect(forward.remote == swapped.local)
        #expect(forward.conflicts == swapped.conflicts)
    }

    @Test("applying the actions converges: merging again changes nothing", arguments: scenarios)
    func convergence(_ scenario: MergeScenario) {
        let first = TaskMerge.merge(base: scenario.base, local: scenario.local, remote: scenario.remote)
        func after(_ side: TaskVersion, _ action: MergeAction) -> TaskVersion {
            switch action {
            case .none: side
            case .write(let fields): .present(fields)
            case .delete: .deleted(at: nil)
            }
        }
        let newBase: TaskFields? = if case .present(let fields) = first.merged { fields } else { nil }
        let second = TaskMerge.merge(
            base: newBase, local: after(scenario.local, first.local), remote: after(scenario.remote, first.remote))
        #expect(second.local == .none)
        #expect(second.remote == .none)
    }

    private func action(_ expected: MergeScenario.Expected, _ merged: TaskVersion) -> MergeAction {
        switch expected {
        case .none: return .none
        case .delete: return .delete
        case .write:
            guard case .present(let fields) = merged else { return .delete }
            return .write(fields)
        }
    }
}

extension TaskFields {
    /// A copy with `change` applied.
    func with(_ change: (inout TaskFields) -> Void) -> TaskFields {
        var copy = self
        change(&copy)
        return copy
    }
}

/// `import` merges an export file's copy of a task with the store's by the same rules (SPEC §12).
@Suite("import's two-way merge")
struct ImportMergeTests {
    let stored: TaskItem = {
        var task = TaskItem(title: "Pay rent", dueDate: at(24 * 60), createdAt: at(-60))
        task.modifiedAt = at(0)
        return task
    }()

    @Test func anOldCopyOfACompletedTaskDoesNotReopenIt() {
        var completed = stored
        completed.complete(at: at(30))
        var oldCopy = stored
        oldCopy.title = "Pay the rent"
        oldCopy.modifiedAt = at(10)
        let merged = TaskMerge.merge(stored: completed, incoming: oldCopy)
        #expect(merged == nil, "the store's copy is newer and completed: nothing to change")
    }

    @Test func aNewerCopyReplacesOlderEditsButKeepsTheCompletion() {
        var completed = stored
        completed.complete(at: at(30))
        var newer = stored
        newer.title = "Pay the rent"
        newer.modifiedAt = at(40)
        let merged = TaskMerge.merge(stored: completed, incoming: newer)
        #expect(merged?.title == "Pay the rent")
        #expect(merged?.isCompleted == true && merged?.state == .completed && merged?.completedAt == at(30))
        #expect(merged?.modifiedAt == at(40))
    }

    @Test func anOlderCopyDoesNotReplaceNewerEdits() {
        var edited = stored
        edited.title = "Pay rent today"
        edited.modifiedAt = at(50)
        var older = stored
        older.dueDate = nil
        older.modifiedAt = at(20)
        #expect(TaskMerge.merge(stored: edited, incoming: older) == nil)
    }

    /// The merge compares whole seconds, but an updated task keeps each instant's milliseconds:
    /// a creation and modification time cut to the second made the store's copy look older
    /// (helper-101).
    @Test func anUpdatedTaskKeepsItsMilliseconds() throws {
        var mine = stored
        mine.createdAt = Instant(millisecondsSince1970: at(0).millisecondsSince1970 + 358)
        mine.modifiedAt = Instant(millisecondsSince1970: at(5).millisecondsSince1970 + 641)
        var renamed = mine
        renamed.title = "Pay the rent"
        renamed.dueDate = Instant(millisecondsSince1970: at(60).millisecondsSince1970 + 250)
        let merged = try #require(TaskMerge.merge(stored: mine, incoming: renamed))
        #expect(merged.title == "Pay the rent" && merged.dueDate == renamed.dueDate)
        #expect(merged.createdAt == mine.createdAt && merged.modifiedAt == mine.modifiedAt)
    }

    @Test func theSameTaskChangesNothing() {
        #expect(TaskMerge.merge(stored: stored, incoming: stored) == nil)
    }
}
