public import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats

/// `--format --template --max-width`: how a status line looks (`status` and `watch`).
///
/// `--format` and `--max-width` have no default values for ArgumentParser: ``StatusLineChoice``
/// applies them, and the help states them. For an option with a default value,
/// ArgumentParser describes that value at every parse, through a cast to `CaseIterable &
/// RawRepresentable` and `String(describing:)`, and the first of each such look-up walks all of the
/// program's conformance records (`status` at 10k tasks: 31.33 → 29.96 M instructions).
struct StatusLineOptions: ParsableArguments {
    @Option(name: .customLong("format"), help: Self.formatHelp) private var chosenFormat: StatusFormat?
    @Option(help: Self.templateHelp, completion: .file()) var template: String?
    @Option(name: .customLong("max-width"), help: Self.maxWidthHelp) private var chosenMaxWidth: Int?

    /// The help of each option, for `status`, which declares them without this group.
    static let formatHelp = ArgumentHelp("The kind of line (default: text).", valueName: "format")
    static let templateHelp = ArgumentHelp("A Mustache template to use instead of the format's.", valueName: "file")
    static let maxWidthHelp = ArgumentHelp("Cut titles to this many characters, 4 or more (default: \(StatusRenderer.defaultMaxWidth)).", valueName: "n")

    /// What the options chose.
    var choice: StatusLineChoice { StatusLineChoice(format: chosenFormat, template: template, maxWidth: chosenMaxWidth) }
    var format: StatusFormat { choice.format }
    var maxWidth: Int { choice.maxWidth }

    /// ``StatusLineChoice/renderer(environment:)``.
    func renderer(environment: [String: String]) throws -> StatusRenderer {
        try choice.renderer(environment: environment)
    }

    /// The format `arguments` choose (the last `--format`, as ArgumentParser reads it, else text),
    /// for a command line that did not parse; `nil` when the value given is no format.
    static func format(in arguments: [String]) -> StatusFormat? {
        var format: StatusFormat? = .text
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--format", index + 1 < arguments.count {
                format = StatusFormat(rawValue: arguments[index + 1])
            } else if argument.hasPrefix("--format=") {
                format = StatusFormat(rawValue: String(argument.dropFirst("--format=".count)))
            }
        }
        return format
    }

    /// Whether an error's line of `format` goes to standard output: always for a bar's format,
    /// which a bar reads; for text and JSON only when no terminal shows it, since there the error
    /// on stderr says it all, and the line said it twice (helper-74).
    static func printsErrorLine(format: StatusFormat) -> Bool {
        StatusFallback.exitsNormally(format: format) || isatty(STDOUT_FILENO) != 1
    }

}

/// The values of `--format`, `--template` and `--max-width`, however they were parsed.
struct StatusLineChoice {
    /// `--format`, else text.
    let format: StatusFormat
    let template: String?
    /// `--max-width`, else ``StatusRenderer/defaultMaxWidth``.
    let maxWidth: Int

    init(format: StatusFormat?, template: String?, maxWidth: Int?) {
        self.format = format ?? .text
        self.template = template
        self.maxWidth = maxWidth ?? StatusRenderer.defaultMaxWidth
    }

    /// The renderer of the format, with the user's template when there is one (`environment`
    /// locates the configuration folder).
    ///
    /// It checks `--max-width` too, rather than `validate()`, so that a bar gets its format's error
    /// line for a width too small, as for a template it cannot use: it showed nothing before.
    func renderer(environment: [String: String]) throws -> StatusRenderer {
        guard maxWidth >= 4 else { throw TaskWidgetError(.invalidInput, "--max-width must be at least 4", context: "--max-width") }
        return try StatusRenderer(format: format, template: .resolve(format: format, path: template, environment: environment))
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
