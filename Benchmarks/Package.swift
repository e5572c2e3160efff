// swift-tools-version:6.1
import PackageDescription

// In-process benchmarks of taskwidget (SPEC §9), apart from the root package so that neither the
// benchmark package nor its malloc interposer reach the taskwidget binary. Run them with
// `swift package --package-path Benchmarks benchmark` (README, Performance).
let package = Package(
    name: "TaskWidgetBenchmarks",
    dependencies: [
        .package(name: "taskwidget", path: ".."),
        // Only the malloc interposer: the default traits would also bring the Linux Swift 6.3 ARC
        // runtime interposer, a package this machine has no copy of.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "TaskWidgetBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TaskWidgetCore", package: "taskwidget"),
                .product(name: "TaskWidgetStore", package: "taskwidget"),
                .product(name: "TaskWidgetFormats", package: "taskwidget"),
                .product(name: "TaskWidgetRender", package: "taskwidget"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/TaskWidgetBenchmarks",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
