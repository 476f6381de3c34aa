// swift-tools-version:6.1
// SPDX-License-Identifier: MIT
// Host benchmarks for touchd, kept out of the main package so that `make test`
// does not build them. Run with `make bench` (release build).
import PackageDescription

let package = Package(
    name: "touchd-benchmarks",
    dependencies: [
        .package(name: "touchd", path: ".."),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "touchd-bench",
            dependencies: [
                .product(name: "TouchCore", package: "touchd"),
                .product(name: "Trace", package: "touchd"),
                .product(name: "Gestures", package: "touchd"),
                .product(name: "TouchMotion", package: "touchd"),
                .product(name: "Wire", package: "touchd"),
                .product(name: "EngineMessages", package: "touchd"),
                .product(name: "Publisher", package: "touchd"),
                .product(name: "TouchDaemon", package: "touchd"),
                .product(name: "Session", package: "touchd"),
                .product(name: "SystemCalls", package: "touchd"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
