// swift-tools-version:6.1
// libFuzzer targets for taskwidget (run them with scripts/fuzz/run.sh): a package of its own, so that
// the main package's build, which has no -sanitize=fuzzer, stays as it is.
import PackageDescription

let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "taskwidget-fuzz",
    dependencies: [.package(name: "taskwidget", path: "../..")],
    targets: [
        // Any bytes as an `import` file.
        .executableTarget(
            name: "FuzzImport", dependencies: [.product(name: "TaskWidgetCore", package: "taskwidget")], swiftSettings: settings),
        // Any bytes as a zone, a now and a WHEN / --now text.
        .executableTarget(
            name: "FuzzWhen", dependencies: [.product(name: "TaskWidgetCore", package: "taskwidget")], swiftSettings: settings),
    ]
)
