import Foundation
import TaskWidgetCore
import TaskWidgetRender

/// `taskwidget-render`: draws PNG widgets for `taskwidget render` and `watch --render-dir`, which
/// start it so that taskwidget itself never loads Cairo and Pango (``DrawingProtocol`` has the
/// conversation: the widget on the first line, e.g. `--family medium --scale 2 --theme dark`,
/// then one entry per line).
@main
enum RenderHelper {
    static func main() {
        guard CommandLine.arguments.count == 1 else {
            fail(TaskWidgetError(.invalidInput, "taskwidget-render takes no arguments: taskwidget starts it and tells it what to draw"))
        }
        // Before fontconfig is loaded, as in every taskwidget program.
        XDGPaths.unsetInvalidVariables()
        // The end of the input before a widget: the program that started this one had nothing to draw.
        guard let first = readLine(strippingNewline: true) else { exit(0) }
        let renderer: WidgetRenderer
        do {
            renderer = WidgetRenderer(spec: try DrawingProtocol.spec(fromLine: first))
        } catch {
            fail(error as? TaskWidgetError ?? TaskWidgetError(.invalidInput, "cannot read the widget line: taskwidget and taskwidget-render are from different builds: install both from the same one"))
        }
        while let line = readLine(strippingNewline: true) {
            var answer: Data
            do {
                let png = try DrawingProtocol.unavailableMessage(inLine: line).map { try renderer.unavailableImage(message: $0) }
                    ?? renderer.image(for: TimelineJSON.entry(from: Data(line.utf8)))
                answer = DrawingProtocol.imageHeader(count: png.count)
                answer.append(png)
            } catch let error as TaskWidgetError {
                answer = DrawingProtocol.errorHeader(error)
            } catch {
                answer = DrawingProtocol.errorHeader(TaskWidgetError(.rendererFailed, "cannot draw the widget"))
            }
            // A write that fails means the reader is gone: nothing more to draw for.
            guard (try? SystemError.writeAll(answer, to: STDOUT_FILENO)) != nil else { exit(74) }
        }
    }

    /// Reports `error` on standard error and exits with its status.
    private static func fail(_ error: TaskWidgetError) -> Never {
        // `try?`: a closed standard error must not crash the exit.
        try? FileHandle.standardError.write(contentsOf: Data("taskwidget-render: \(error.message)\n".utf8))
        exit(error.code.exitStatus)
    }
}
