// swift-tools-version: 6.2
// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0
//
// The VettID reference backend and the `vettid` command-line tool.
// Depends on the client SDK (the root package) by path; an app that depends on the root package never
// resolves anything declared here.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "VettIDServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "VettIDServer", targets: ["VettIDServer"]),
        .executable(name: "vettid-server", targets: ["vettid-server"]),
        .executable(name: "vettid", targets: ["vettid"]),
    ],
    dependencies: [
        .package(name: "VettID", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The APNs test server speaks HTTP/2 itself; the client side comes with async-http-client.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Used only by scripts/generate-openapi (regenerate + drift check); never linked into a product.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]
        ),
        .systemLibrary(
            name: "CZxcvbn",
            providers: [.apt(["libzxcvbn-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(
            name: "VettIDServer",
            dependencies: [
                "CArgon2",
                "CZxcvbn",
                "CQREncode",
                .product(name: "VettIDAPI", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "VettIDSoftwareAttestation", package: "VettID"),
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "VettIDSession", package: "VettID"),
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // A local APNs (HTTP/2 + TLS on loopback) for the server's tests and `vettid demo`; never deployed.
        .target(
            name: "VettIDLocalAPNS",
            dependencies: [
                "VettIDServer",
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        // The CLI's commands, as a library so tests can parse and run them.
        .target(
            name: "VettIDCLI",
            dependencies: [
                "VettIDServer",
                "VettIDLocalAPNS",
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "VettIDSoftwareAttestation", package: "VettID"),
                .product(name: "VettIDSoftwareAttestationClient", package: "VettID"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "VettIDClient", package: "VettID"),
                .product(name: "VettIDNats", package: "VettID"),
                .product(name: "VettIDAPI", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vettid-server",
            dependencies: ["VettIDCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vettid",
            dependencies: ["VettIDCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDServerTests",
            dependencies: [
                "VettIDServer",
                "VettIDLocalAPNS",
                "CArgon2",
                .product(name: "VettIDAPI", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "VettIDSession", package: "VettID"),
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "VettIDSoftwareAttestation", package: "VettID"),
                .product(name: "VettIDTestSupport", package: "VettID"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "VettIDServer",
                "VettIDCLI",
                "VettIDLocalAPNS",
                .product(name: "VettIDClient", package: "VettID"),
                .product(name: "VettIDNats", package: "VettID"),
                .product(name: "VettIDAPI", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "NATSClient", package: "VettID"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "VettIDSoftwareAttestation", package: "VettID"),
                .product(name: "VettIDSoftwareAttestationClient", package: "VettID"),
                .product(name: "VettIDTestSupport", package: "VettID"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
