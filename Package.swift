// swift-tools-version:6.1
import PackageDescription

/// Strict settings for every target of ours (see apple/swift-log's manifest).
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The modules follow the data flow (SPEC §10), and each sees only what is upstream of it:
//   Core ← Store ← Formats, Render (Core only) ← Watch ← the executables.
// Core is Foundation only; GRDB is seen by Store alone, Mustache by Formats, C by Render and the
// `C…` system library targets.
let package = Package(
    name: "taskwidget",
    products: [
        .library(name: "TaskWidgetCore", targets: ["TaskWidgetCore"]),
        .library(name: "TaskWidgetStore", targets: ["TaskWidgetStore"]),
        .library(name: "TaskWidgetFormats", targets: ["TaskWidgetFormats"]),
        .library(name: "TaskWidgetRender", targets: ["TaskWidgetRender"]),
        .library(name: "TaskWidgetWatch", targets: ["TaskWidgetWatch"]),
        .library(name: "TaskWidgetConfig", targets: ["TaskWidgetConfig"]),
        .executable(name: "taskwidget", targets: ["taskwidget"]),
        // Draws for `taskwidget render` and `watch --render-dir`, so that the other commands never
        // load Cairo and Pango.
        .executable(name: "taskwidget-render", targets: ["taskwidget-render"]),
        // `taskwidget sync`: its own program, so that the HTTP stack (AsyncHTTPClient on SwiftNIO) and
        // the XML parser never load in the commands a status bar runs.
        .executable(name: "taskwidget-sync", targets: ["taskwidget-sync"]),
        .library(name: "TaskWidgetSync", targets: ["TaskWidgetSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Sync's HTTP client, and the SwiftNIO modules whose errors and buffers its transport names.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // Model, rules, dates and zones, the timeline and its documented JSON. Foundation only.
        .target(name: "TaskWidgetCore", swiftSettings: strictSettings),
        // The SQLite store (GRDB): migrations, writes, and snapshots in Core's types.
        .target(
            name: "TaskWidgetStore",
            dependencies: [
                "TaskWidgetCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
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
        // The user's config.toml (TOMLKit): views, and the settings of serve, sync and notify.
        .target(
            name: "TaskWidgetConfig",
            dependencies: ["TaskWidgetCore", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strictSettings
        ),
        // Status lines from Mustache templates, each escaped for its host; tables for people.
        .target(
            name: "TaskWidgetFormats",
            dependencies: ["TaskWidgetCore", "TaskWidgetTemplates", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strictSettings
        ),
        // PNG widgets (SPEC §7): the only Swift code that sees C. Cairo + Pango draw, libpng encodes.
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(
            name: "TaskWidgetRender",
            dependencies: ["TaskWidgetCore", "CPangoCairo", "CLibPNG"],
            swiftSettings: strictSettings
        ),
        // timerfd and signalfd for watch mode: Swift's Glibc module does not import them.
        .systemLibrary(name: "CLinuxEvents"),
        // The follow loop (signals, timers, inotify) around pure session logic, and the drawing helper.
        .target(
            name: "TaskWidgetWatch",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetFormats", "CLinuxEvents",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetFormats", "TaskWidgetWatch", "TaskWidgetConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget-render",
            dependencies: ["TaskWidgetCore", "TaskWidgetRender"],
            swiftSettings: strictSettings
        ),
        // Sync with CalDAV servers (SPEC §12): iCalendar (RFC 5545), the VTODO mapping, the CalDAV
        // client over AsyncHTTPClient, and the engine that pulls, merges (Core's TaskMerge) and pushes.
        .target(
            name: "TaskWidgetSync",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget-sync",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "TaskWidgetSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),

        // What the test targets share: a process runner, seeded random numbers, golden files,
        // temporary stores and the timeline fixtures. Its internals are used through @testable.
        .target(
            name: "TaskWidgetTestSupport",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/TaskWidgetTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetCoreTests",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Timeline/Goldens"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetStoreTests",
            dependencies: [
                "TaskWidgetStore", "TaskWidgetCore", "TaskWidgetTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetConfigTests",
            dependencies: ["TaskWidgetConfig", "TaskWidgetCore", "TaskWidgetTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetFormatsTests",
            dependencies: [
                "TaskWidgetFormats", "TaskWidgetStore", "TaskWidgetCore", "TaskWidgetTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Goldens"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetRenderTests",
            dependencies: ["TaskWidgetRender", "TaskWidgetCore", "TaskWidgetTestSupport", "CLibPNG"],
            exclude: ["Goldens", "fonts.conf"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetWatchTests",
            dependencies: ["TaskWidgetWatch", "TaskWidgetFormats", "TaskWidgetCore", "TaskWidgetTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetSyncTests",
            dependencies: [
                "TaskWidgetSync", "TaskWidgetStore", "TaskWidgetCore", "TaskWidgetConfig", "TaskWidgetTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
