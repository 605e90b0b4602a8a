// swift-tools-version: 6.2
//
// Benchmarks for NATSClient, kept out of the root manifest. Run through scripts/bench-nats.

import PackageDescription

let package = Package(
    name: "VettIDBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "NATSBench",
            dependencies: [
                .product(name: "NATSClient", package: "main"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
