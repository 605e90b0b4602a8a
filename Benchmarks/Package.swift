// swift-tools-version: 6.2
// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0
//
// Every benchmark executable of the project, kept out of the SDK's and the server's manifests (an app or the
// server's build never compiles them). Each is run by its script, which builds it in release:
//
//   NATSBench            scripts/bench-nats        NATSClient against nats.c and nats.go
//   JetStreamBench       scripts/bench-jetstream   NATSClient's JetStream against nats.c's and nats.go's
//   GateBench            scripts/bench-gate        DPoP proofs/s and the Gate proxy against a direct upstream
//   VaultBench           scripts/bench-vault       vault enrollments/s and authentications/s, peak memory
//   VaultMessagingBench  scripts/bench-messaging   app <-> vault worker over NATS against raw request/reply,
//                                                  sealed against plaintext, the handshake against bare crypto
//
// BenchSupport holds what they share: the one failure type, `emit` and `Duration.seconds`.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "VettIDBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named, so the products resolve whatever the checkout directory is called (the identity of a path
        // dependency is otherwise its directory name).
        .package(name: "VettID", path: ".."),
        .package(name: "VettIDServer", path: "../Server"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(name: "BenchSupport", swiftSettings: swiftSettings),
        .executableTarget(
            name: "NATSBench",
            dependencies: [
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "JetStreamBench",
            dependencies: [
                "BenchSupport",
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GateBench",
            dependencies: [
                "BenchSupport",
                .product(name: "VettIDServer", package: "VettIDServer"),
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "VettIDSoftwareAttestation", package: "VettID"),
                .product(name: "VettIDClient", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "VaultMessagingBench",
            dependencies: [
                "BenchSupport",
                .product(name: "VettIDServer", package: "VettIDServer"),
                .product(name: "VettIDAPI", package: "VettID"),
                .product(name: "VettIDClient", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "VettIDNats", package: "VettID"),
                .product(name: "VettIDSession", package: "VettID"),
                .product(name: "VettIDTestSupport", package: "VettID"),
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "VaultBench",
            dependencies: [
                "BenchSupport",
                .product(name: "VettIDServer", package: "VettIDServer"),
                .product(name: "VettIDClient", package: "VettID"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
