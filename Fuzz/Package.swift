// swift-tools-version:6.1
// SPDX-License-Identifier: MIT
// libFuzzer harnesses for touchd, kept out of the main package so that
// `swift build` and `make test` do not build them. Run with `make fuzz` or
// `make fuzz-short` (scripts/fuzz.sh, docs/reliability.md), which build with
//   swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
// (`--sanitize=fuzzer` tells SwiftPM that libFuzzer provides `main`;
// `-Xswiftc -sanitize=fuzzer,address` puts the coverage instrumentation in
// every Swift module: SwiftPM's two separate --sanitize flags reach the
// compiler as the last one only, which leaves the code uninstrumented).
import PackageDescription

// Each harness defines LLVMFuzzerTestOneInput and no main of its own.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "touchd-fuzz",
    dependencies: [
        .package(name: "touchd", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "TouchCore", package: "touchd"), .product(name: "Trace", package: "touchd")]
        ),
        .executableTarget(
            name: "fuzz-evemu",
            dependencies: ["FuzzSupport", .product(name: "Trace", package: "touchd")],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-libinput-yaml",
            dependencies: ["FuzzSupport", .product(name: "Trace", package: "touchd")],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-yaml-config",
            dependencies: [
                "FuzzSupport",
                .product(name: "YAMLReader", package: "touchd"),
                .product(name: "Gestures", package: "touchd"),
            ],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-native-trace",
            dependencies: ["FuzzSupport", .product(name: "Trace", package: "touchd")],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-wire-request",
            dependencies: ["FuzzSupport", .product(name: "JSON", package: "touchd"), .product(name: "Wire", package: "touchd")],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-request-frames",
            dependencies: [
                "FuzzSupport",
                .product(name: "Wire", package: "touchd"),
                .product(name: "Publisher", package: "touchd"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "fuzz-pipeline-engine",
            dependencies: [
                "FuzzSupport",
                .product(name: "TouchCore", package: "touchd"),
                .product(name: "Gestures", package: "touchd"),
                .product(name: "Trace", package: "touchd"),
                .product(name: "TouchTesting", package: "touchd"),
            ],
            swiftSettings: harness
        ),
    ],
    swiftLanguageModes: [.v6]
)
