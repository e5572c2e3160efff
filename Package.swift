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
//   Core ← Store ← Formats, Render (Core only) ← Watch ← Serve, Notify (with Config) ← the executables,
//   and Core ← Store ← Sync (with Config).
// Core is Foundation only; GRDB is seen by Store alone, Mustache by Formats, C by Render, Notify
// (GLib) and the `C…` system library targets.
let package = Package(
    name: "taskwidget",
    products: [
        .library(name: "TaskWidgetCore", targets: ["TaskWidgetCore"]),
        .library(name: "TaskWidgetStore", targets: ["TaskWidgetStore"]),
        .library(name: "TaskWidgetFormats", targets: ["TaskWidgetFormats"]),
        .library(name: "TaskWidgetRender", targets: ["TaskWidgetRender"]),
        .library(name: "TaskWidgetWatch", targets: ["TaskWidgetWatch"]),
        .library(name: "TaskWidgetConfig", targets: ["TaskWidgetConfig"]),
        .library(name: "TaskWidgetServe", targets: ["TaskWidgetServe"]),
        .library(name: "TaskWidgetNotify", targets: ["TaskWidgetNotify"]),
        .library(name: "TaskWidgetSync", targets: ["TaskWidgetSync"]),
        .executable(name: "taskwidget", targets: ["taskwidget"]),
        // Draws for `taskwidget render` and `watch --render-dir`, so that the other commands never
        // load Cairo and Pango.
        .executable(name: "taskwidget-render", targets: ["taskwidget-render"]),
        // `taskwidget serve`, a program of its own so that the HTTP stack never slows `status`.
        .executable(name: "taskwidget-serve", targets: ["taskwidget-serve"]),
        // `taskwidget notify`: a program of its own, so that only it loads GLib and talks D-Bus.
        .executable(name: "taskwidget-notify", targets: ["taskwidget-notify"]),
        // `taskwidget sync`: its own program, so that the HTTP stack (AsyncHTTPClient on SwiftNIO) and
        // the XML parser never load in the commands a status bar runs.
        .executable(name: "taskwidget-sync", targets: ["taskwidget-sync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Sync's HTTP client (the SwiftNIO modules above are shared with serve).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
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
        // Closed standard descriptors filled before main (see its one C file).
        .target(name: "CStandardDescriptors"),
        // What the command-line programs share: the global, scope and widget options, and how a
        // command runs (errors, exit statuses, standard output).
        .target(
            name: "TaskWidgetCLI",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "CLinuxEvents", "CStandardDescriptors",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // GLib, GObject and GIO (GDBus) for desktop notifications, seen only by TaskWidgetNotify.
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // Reminders as desktop notifications (SPEC §13): pure scheduling around the follow loop,
        // the freedesktop Notifications client over GDBus, delivered-reminder state, the session lock.
        .target(
            name: "TaskWidgetNotify",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "TaskWidgetWatch", "CGio", "CLinuxEvents",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetFormats", "TaskWidgetWatch", "TaskWidgetConfig", "TaskWidgetCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            // A release taskwidget is one static executable, the C library and SQLite included: a bar
            // runs `status` every few seconds, and loading and binding the shared libraries (ld.so,
            // libc, libsqlite3, libm, libgcc_s) cost each run about 2 ms of its 7 (status at 10k
            // tasks: 7.3 → 5.4 ms, 30.1 → 27.0 M instructions). It resolves no users or host names and
            // loads no library at run time, which static glibc does not do well; its siblings load
            // Cairo, GLib and libxml2, so they stay dynamic (scripts/lib/release_build.sh).
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "taskwidget-render",
            dependencies: ["TaskWidgetCore", "TaskWidgetRender"],
            swiftSettings: strictSettings
        ),
        // The dashboard server (SPEC §11) on Hummingbird: a cache that follows the store as watch
        // does, the routes, TRMNL's BYOS API, and the limits that keep it safe on a network.
        .target(
            name: "TaskWidgetServe",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetFormats", "TaskWidgetRender", "TaskWidgetWatch", "TaskWidgetConfig",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
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
            name: "taskwidget-serve",
            dependencies: [
                "TaskWidgetServe", "TaskWidgetCLI", "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "TaskWidgetFormats", "TaskWidgetWatch",
                "TaskWidgetRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget-notify",
            dependencies: [
                "TaskWidgetNotify", "TaskWidgetCLI", "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "TaskWidgetWatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "taskwidget-sync",
            dependencies: [
                "TaskWidgetSync", "TaskWidgetCLI", "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetConfig", "TaskWidgetFormats",
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
                "TaskWidgetCore", "TaskWidgetStore", "TaskWidgetWatch", .product(name: "GRDB", package: "GRDB.swift"),
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
            dependencies: ["TaskWidgetRender", "TaskWidgetCore", "TaskWidgetTestSupport", "CLibPNG", "CPangoCairo"],
            exclude: ["Goldens", "fonts.conf"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetWatchTests",
            dependencies: ["TaskWidgetWatch", "TaskWidgetFormats", "TaskWidgetCore", "TaskWidgetTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetServeTests",
            dependencies: [
                "TaskWidgetServe", "TaskWidgetCore", "TaskWidgetFormats", "TaskWidgetWatch", "TaskWidgetConfig", "TaskWidgetTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetNotifyTests",
            dependencies: [
                "TaskWidgetNotify", "TaskWidgetWatch", "TaskWidgetCore", "TaskWidgetTestSupport", "CGio",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TaskWidgetSyncTests",
            dependencies: [
                "TaskWidgetSync", "TaskWidgetStore", "TaskWidgetCore", "TaskWidgetConfig", "TaskWidgetTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TaskWidgetCore", "TaskWidgetTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Browser/dashboard_page.py", "Support/interrupt_on_terminal.py"],
            swiftSettings: strictSettings
        ),
    ]
)
