public import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats

/// `--format --template --max-width`: how a status line looks (`status` and `watch`).
struct StatusLineOptions: ParsableArguments {
    @Option(help: "text, json, waybar, i3bar, polybar or tmux.") var format: StatusFormat = .text
    @Option(help: ArgumentHelp("A Mustache template to use instead of the format's.", valueName: "file")) var template: String?
    @Option(help: ArgumentHelp("Cut titles to this many characters.", valueName: "n")) var maxWidth = 40

    func validate() throws {
        guard maxWidth >= 4 else { throw ValidationError("--max-width must be at least 4") }
    }

    /// The renderer of the format, with the user's template when there is one (`environment`
    /// locates the configuration folder).
    func renderer(environment: [String: String]) throws -> StatusRenderer {
        try StatusRenderer(format: format, template: .resolve(format: format, path: template, environment: environment))
    }
}

extension StatusFormat: ExpressibleByArgument {
    // The same values as ArgumentParser's defaults for a CaseIterable and RawRepresentable type,
    // without their key path over a generic type and their reduce, which look conformances up at
    // every run.
    static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// No value has a description of its own.
    static var allValueDescriptions: [String: String] { [:] }
}
extension ColorChoice: ExpressibleByArgument {}
