// swift-tools-version:6.1
import PackageDescription

/// Strict settings for every target of ours (see apple/swift-log's manifest).
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "taskwidget",
    products: [
        .library(name: "TaskWidgetKit", targets: ["TaskWidgetKit"]),
        .library(name: "TaskWidgetWatch", targets: ["TaskWidgetWatch"]),
        .library(name: "TaskWidgetRender", targets: ["TaskWidgetRender"]),
        // Loaded by `taskwidget` when it draws (RenderPlugin), so that the other commands start
        // without Cairo and Pango.
        .library(name: "TaskWidgetRenderPlugin", type: .dynamic, targets: ["TaskWidgetRenderPlugin"]),
        .executable(name: "taskwidget", targets: ["taskwidget"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "TaskWidgetKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                "TaskWidgetTemplates",
            ],
            swiftSettings: strictSettings
        ),
        // The default templates of the status formats live in templates/ and are compiled into the
        // binary, so that an installed taskwidget needs no files beside it.
        .target(
            name: "TaskWidgetTemplates",
            path: "templates",
            resources: [
                .embedInCode("text.mustache"), .embedInCode("json.mustache"), .embedInCode("waybar.mustache"),
                .embedInCode("i3bar.mustache"), .embedInCode("polybar.mustache"), .embedInCode("tmux.mustache"),
            ],
            swiftSettings: strictSettings
        ),
        // timerfd and signalfd for watch mode: Swift's Glibc module does not import them.
        .systemLibrary(name: "CLinuxEvents"),
        .target(
            name: "TaskWidgetWatch",
            dependencies: ["TaskWidgetKit", "CLinuxEvents", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // PNG widgets (SPEC §7): the only code that sees C. Cairo + Pango draw, libpng encodes.
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(
            name: "TaskWidgetRender",
            dependencies: ["TaskWidgetKit", "CPangoCairo", "CLibPNG"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TaskWidgetRenderPlugin",
            dependencies: ["TaskWidgetKit", "TaskWidgetRender"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget",
            dependencies: [
                "TaskWidgetKit",
                "TaskWidgetWatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetKitTests",
            dependencies: [
                "TaskWidgetKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Timeline/Goldens", "Formats/Goldens"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetWatchTests",
            dependencies: ["TaskWidgetWatch", "TaskWidgetKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetRenderTests",
            dependencies: ["TaskWidgetRender", "TaskWidgetKit", "CLibPNG"],
            exclude: ["Goldens", "fonts.conf"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TaskWidgetKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
    ]
)
