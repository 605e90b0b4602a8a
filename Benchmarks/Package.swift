// swift-tools-version: 6.2
//
// Benchmarks for NATSClient, kept out of the root manifest. Run through scripts/bench-nats.

import PackageDescription

let package = Package(
    name: "VettIDBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named, so the products resolve whatever the checkout directory is called (the identity of a path
        // dependency is otherwise its directory name).
        .package(name: "VettID", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "NATSBench",
            dependencies: [
                .product(name: "NATSClient", package: "VettID"),
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
