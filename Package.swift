// swift-tools-version:6.1
// SPDX-License-Identifier: MIT
import PackageDescription

let package = Package(
    name: "touchd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "touchctl", targets: ["touchctl"]),
        .executable(name: "touchd", targets: ["touchd"]),
        // The client API: the only modules whose declarations are `public`;
        // everything else is `package` (the benchmarks and fuzz harnesses are
        // targets of this package, below).
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "TouchClient", targets: ["TouchClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CLibudev",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .systemLibrary(name: "CSystemCalls"),
        .target(name: "SystemCalls", dependencies: ["CSystemCalls"]),
        .target(name: "TouchCore"),
        .target(name: "KeyboardKeys"),
        .target(name: "Quirks", dependencies: ["TouchCore"]),
        // JSON values, parsing and the text every writer shares, for Trace and Wire alike.
        .target(name: "JSON"),
        .target(name: "Gestures", dependencies: ["TouchCore", "KeyboardKeys"]),
        .target(name: "YAMLReader"),
        .target(name: "Trace", dependencies: ["JSON", "TouchCore", "YAMLReader", "SystemCalls"]),
        // The protocol as its own values: what clients link (no engine, no session core).
        .target(name: "Wire", dependencies: ["JSON"]),
        // The server's edge: engine outputs as protocol values and lines, requests as engine values.
        .target(name: "EngineMessages", dependencies: ["Wire", "TouchCore", "Gestures", "TouchMotion"]),
        .target(
            name: "Publisher",
            dependencies: [
                "Wire", "SystemCalls", "TouchCore", "TouchMotion", "EngineMessages",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "Actions",
            dependencies: ["JSON", "SystemCalls", "TouchClient", "TouchCore", "Wire", "YAMLReader"]
        ),
        .target(
            name: "TouchClient",
            dependencies: [
                "JSON", "Wire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(name: "Session", dependencies: ["TouchCore", "Gestures", "JSON", "Trace", "Wire", "EngineMessages", "YAMLReader", "Quirks", "KeyboardKeys"]),
        // Pass-through's decisions per device, as a pure state machine returning actions (docs/state-machines/pass-through.md).
        .target(name: "PassThroughMachine", dependencies: ["TouchCore"]),
        // Touches at the display's rate: resampling and prediction, pure (docs/semantics.md §14).
        .target(name: "TouchMotion", dependencies: ["TouchCore"]),
        .target(name: "Evdev", dependencies: ["CLibevdev", "TouchCore", "KeyboardKeys", "SystemCalls"]),
        .target(name: "Udev", dependencies: ["CLibudev", "TouchCore", "SystemCalls"]),
        .target(name: "LiveInput", dependencies: ["Evdev", "Udev", "TouchCore", "SystemCalls"]),
        .target(name: "TouchTesting", dependencies: ["TouchCore", "Gestures", "Trace"]),
        // Swift Testing traits for tests that need the kernel; apart from
        // TouchTesting because the fuzz harnesses link that, and this imports Testing.
        .target(name: "KernelTesting", dependencies: ["SystemCalls"]),
        .target(
            name: "TouchDaemon",
            dependencies: [
                "TouchCore", "Gestures", "JSON", "Trace", "Wire", "EngineMessages", "Session", "Publisher", "TouchMotion", "CSystemd", "LiveInput", "Evdev", "Udev", "YAMLReader", "SystemCalls", "Quirks", "KeyboardKeys", "PassThroughMachine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // touchd's command line, for the touchd executable and for touchctl started as touchd.
        .target(
            name: "DaemonCommand",
            dependencies: [
                "Session", "TouchDaemon", "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "touchd", dependencies: ["DaemonCommand"]),
        // The visual language of pictures and the live view, in the protocol's values (no engine).
        .target(name: "DrawingStyle", dependencies: ["Wire"]),
        .target(name: "Render", dependencies: ["TouchCore", "Gestures", "Session", "Wire", "EngineMessages", "DrawingStyle"]),
        .target(
            name: "LiveView",
            dependencies: [
                "DrawingStyle", "TouchClient", "Wire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "touchctl",
            dependencies: [
                "TouchCore", "Gestures", "Trace", "Wire", "EngineMessages", "Session", "TouchDaemon", "TouchClient", "LiveInput", "Evdev", "Udev", "Render", "LiveView", "SystemCalls", "Actions", "DaemonCommand", "Quirks", "TouchMotion", "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "KernelTestingTests", dependencies: ["KernelTesting"]),
        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore", "Trace", "TouchTesting"]),
        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "QuirksTests", dependencies: ["Quirks", "TouchCore", "Trace", "TouchTesting"]),
        .testTarget(name: "KeyboardKeysTests", dependencies: ["KeyboardKeys"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "TouchCore", "TouchTesting"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "TouchCore", "Trace", "TouchTesting"]),
        .testTarget(name: "WireTests", dependencies: ["Wire", "JSON"]),
        .testTarget(name: "PassThroughMachineTests", dependencies: ["PassThroughMachine", "TouchCore"]),
        .testTarget(name: "TouchMotionTests", dependencies: ["TouchMotion", "TouchCore", "TouchTesting"]),
        .testTarget(name: "EngineMessagesTests", dependencies: ["EngineMessages", "Wire", "TouchCore", "Gestures", "TouchMotion"]),
        .testTarget(
            name: "TouchDaemonTests",
            dependencies: ["TouchDaemon", "TouchCore", "Gestures", "JSON", "Trace", "Wire", "EngineMessages", "Session", "TouchTesting", "TouchClient", "Publisher", "LiveInput", "Evdev", "Udev", "KernelTesting", "Quirks", "KeyboardKeys",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SessionTests", dependencies: ["Session", "TouchCore", "Gestures", "Trace", "Wire", "JSON", "TouchTesting", "KeyboardKeys", "Quirks"]),
        .testTarget(
            name: "PublisherTests",
            dependencies: [
                "Publisher", "Wire", "JSON", "TouchCore", "TouchMotion",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ActionsTests",
            dependencies: ["Actions", "JSON", "Wire"]
        ),
        .testTarget(
            name: "TouchClientTests",
            dependencies: ["TouchClient", "Publisher", "Wire", "JSON", "TouchCore", "TouchMotion"]
        ),
        .testTarget(name: "DrawingStyleTests", dependencies: ["DrawingStyle", "Wire"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "DrawingStyle", "Session", "TouchCore", "Gestures", "Trace"]),
        .testTarget(
            name: "LiveViewTests",
            dependencies: [
                "LiveView", "DrawingStyle", "Publisher", "TouchClient", "Wire", "JSON", "TouchCore", "TouchMotion",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "TouchCore", "Trace", "Udev", "KernelTesting"]),
        .testTarget(name: "UdevTests", dependencies: ["Udev", "Evdev", "TouchCore", "Trace", "KernelTesting"]),
        .testTarget(name: "LiveInputTests", dependencies: ["LiveInput", "Udev", "Evdev", "TouchCore", "Trace", "TouchTesting", "KernelTesting", "Session"]),
    ],
    swiftLanguageModes: [.v6]
)

// The benchmarks (`make bench`) and the libFuzzer harnesses (`make fuzz`) are
// targets of this package, so they reach its `package` declarations, but
// they are declared only when TOUCHD_EXTRA_TARGETS asks for them: `swift
// build` and `make test` do not build them, and the fuzz harnesses, which
// need -sanitize=fuzzer (libFuzzer provides their `main`), are built one
// product at a time in their own scratch path (scripts/fuzz.sh).
let extraTargets = Set((Context.environment["TOUCHD_EXTRA_TARGETS"] ?? "").split(separator: ",").map(String.init))

if extraTargets.contains("bench") {
    package.dependencies += [
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.5.0"),
    ]
    package.targets.append(
        .executableTarget(
            name: "touchd-bench",
            dependencies: [
                "TouchCore", "Trace", "Gestures", "TouchMotion", "Wire", "EngineMessages", "Publisher", "TouchDaemon", "Session", "SystemCalls",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Sources/touchd-bench"
        )
    )
}

if extraTargets.contains("fuzz") {
    // Each harness defines LLVMFuzzerTestOneInput and no main of its own.
    let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
    package.targets += [
        .target(name: "FuzzSupport", dependencies: ["TouchCore", "Trace"], path: "Fuzz/Sources/FuzzSupport"),
        .executableTarget(name: "fuzz-evemu", dependencies: ["FuzzSupport", "Trace"], path: "Fuzz/Sources/fuzz-evemu", swiftSettings: harness),
        .executableTarget(name: "fuzz-libinput-yaml", dependencies: ["FuzzSupport", "Trace"], path: "Fuzz/Sources/fuzz-libinput-yaml", swiftSettings: harness),
        .executableTarget(name: "fuzz-yaml-config", dependencies: ["FuzzSupport", "YAMLReader", "Gestures"], path: "Fuzz/Sources/fuzz-yaml-config", swiftSettings: harness),
        .executableTarget(name: "fuzz-native-trace", dependencies: ["FuzzSupport", "Trace"], path: "Fuzz/Sources/fuzz-native-trace", swiftSettings: harness),
        .executableTarget(name: "fuzz-wire-request", dependencies: ["FuzzSupport", "JSON", "Wire"], path: "Fuzz/Sources/fuzz-wire-request", swiftSettings: harness),
        .executableTarget(
            name: "fuzz-request-frames",
            dependencies: [
                "FuzzSupport", "Wire", "Publisher",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Fuzz/Sources/fuzz-request-frames",
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-pipeline-engine",
            dependencies: ["FuzzSupport", "TouchCore", "Gestures", "Trace", "TouchTesting"],
            path: "Fuzz/Sources/fuzz-pipeline-engine",
            swiftSettings: harness
        ),
    ]
}

// Release builds optimize across this package's modules as they did when
// their declarations were `public`: the compiler's default (conservative)
// cross-module optimization leaves `package` declarations out, and the
// input path crosses TouchCore, Gestures, EngineMessages, Publisher and
// SystemCalls (without it the client path cost 20-40 % more per frame:
// docs/performance.md, "Access and cross-module optimization").
for target in package.targets where target.type != .system && target.type != .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
}
