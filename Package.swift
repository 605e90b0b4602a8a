// swift-tools-version: 6.2
// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0
//
// The VettID client SDK: what an iOS, macOS or Linux app depends on.
// It has no server dependencies: the backend and the CLI live in Server/Package.swift.
//
// Four products are not for apps: VettIDVerification (the server's DPoP and App Attest verifiers),
// VettIDSoftwareAttestation (App Attest-format objects from a software key, for development and CI),
// VettIDSoftwareAttestationClient (the SDK's DeviceAttester over it) and VettIDTestSupport (helpers for the tests
// of this package and of Server/).
// scripts/check-modules fails when an app product reaches either, or reaches NIO outside VettIDNats.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "VettID",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "VettIDCore", targets: ["VettIDCore"]),
        .library(name: "VettIDCrypto", targets: ["VettIDCrypto"]),
        .library(name: "VettIDAttestation", targets: ["VettIDAttestation"]),
        .library(name: "NATSClient", targets: ["NATSClient"]),
        .library(name: "VettIDMessaging", targets: ["VettIDMessaging"]),
        // The sealed app <-> vault session (docs/protocol.md 7.3): handshake, key schedule, envelopes, admission.
        .library(name: "VettIDSession", targets: ["VettIDSession"]),
        .library(name: "VettIDAPI", targets: ["VettIDAPI"]),
        .library(name: "VettIDClient", targets: ["VettIDClient"]),
        .library(name: "VettIDNats", targets: ["VettIDNats"]),
        .library(name: "VettIDViewModels", targets: ["VettIDViewModels"]),
        .library(name: "VettIDNatsViewModels", targets: ["VettIDNatsViewModels"]),
        // SwiftUI screens (Apple platforms; an empty module elsewhere): enrollment, vault status, sign-in, profile.
        .library(name: "VettIDUI", targets: ["VettIDUI"]),
        // The messaging status view (Apple platforms); brings VettIDNats, hence NIO.
        .library(name: "VettIDNatsUI", targets: ["VettIDNatsUI"]),
        // Server-only: verification of DPoP proofs and App Attest objects.
        .library(name: "VettIDVerification", targets: ["VettIDVerification"]),
        // Development and CI only: a software attestation authority and attester the server can be told to trust.
        .library(name: "VettIDSoftwareAttestation", targets: ["VettIDSoftwareAttestation"]),
        .library(name: "VettIDSoftwareAttestationClient", targets: ["VettIDSoftwareAttestationClient"]),
        // Tests only (this package's and Server/'s): nats-server processes, fixtures, log capture, polling.
        .library(name: "VettIDTestSupport", targets: ["VettIDTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // One definition of each concept both packages share: the coded-error protocol, the wire error codes
        // (generated from openapi.yaml), the wall clock, the password policy. No dependencies, Foundation-light.
        .target(
            name: "VettIDCore",
            swiftSettings: swiftSettings
        ),
        // Pure cryptography shared by the SDK and the server: base64url, JWK, DPoP proofs, HPKE, NKeys, NATS JWT.
        .target(
            name: "VettIDCrypto",
            dependencies: [
                "VettIDCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // App Attest and WebAuthn formats both sides read: authenticator data, CBOR, COSE keys, client data, the
        // client data hash, environments, errors.
        .target(
            name: "VettIDAttestation",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Server-only: the DPoP verifier (nonces, replay cache) and the App Attest verifier (Apple's steps, the
        // chain to Apple's root). Not linked by any app product.
        .target(
            name: "VettIDVerification",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                "VettIDAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // Development and CI: App Attest-format attestations and assertions from a software key under a
        // software root the server trusts only when configured to.
        .target(
            name: "VettIDSoftwareAttestation",
            dependencies: [
                "VettIDCore",
                "VettIDAttestation",
                "VettIDVerification",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // Development and CI: the SDK's DeviceAttester over the software attester. A module of its own so that
        // what only mints or verifies attestations (the fuzz targets, the server's verifier tests) does not
        // bring VettIDClient and its HTTP stack.
        .target(
            name: "VettIDSoftwareAttestationClient",
            dependencies: [
                "VettIDCore",
                "VettIDSoftwareAttestation",
                "VettIDAttestation",
                "VettIDClient",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // NATS protocol client on SwiftNIO: codec, connection state machine, channel handler, public API.
        .target(
            name: "NATSClient",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // NIOSSL on every platform: NATS upgrades to TLS in-band after INFO, also over Network.framework.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(
                    name: "NIOTransportServices",
                    package: "swift-nio-transport-services",
                    condition: .when(platforms: [.macOS, .iOS])
                ),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The app <-> vault wire format over NATS: subjects of a member's spaces, permissions, messages.
        // Shared by the SDK, the token issuer and the vault worker so they cannot drift apart.
        .target(
            name: "VettIDMessaging",
            dependencies: ["VettIDCore", "VettIDCrypto"],
            swiftSettings: swiftSettings
        ),
        // The sealed app <-> vault session: the signed HPKE handshake, the key schedule, envelopes, padding, sequence
        // admission, the inner request and response. Pure (no networking): the SDK and the vault worker drive it.
        .target(
            name: "VettIDSession",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Types and client generated from openapi.yaml (scripts/generate-openapi; committed, drift-checked).
        .target(
            name: "VettIDAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SDK: transports, middlewares, secure storage, device keys, auth, vault, Gate, and the HTTP side of
        // NATS (accounts, tokens, their store and refresh). No NIO: an app that signs in links none of it.
        .target(
            name: "VettIDClient",
            dependencies: [
                "VettIDCore",
                "VettIDAPI",
                "VettIDCrypto",
                "VettIDAttestation",
                "VettIDMessaging",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(
                    name: "OpenAPIURLSession",
                    package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS])
                ),
                .product(
                    name: "OpenAPIAsyncHTTPClient",
                    package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])
                ),
                .product(
                    name: "AsyncHTTPClient",
                    package: "async-http-client",
                    condition: .when(platforms: [.linux])
                ),
            ],
            swiftSettings: swiftSettings
        ),
        // The SDK's live NATS layer: the connection manager, owner and message spaces, token swaps, the setup view
        // model. The only SDK product that depends on NATSClient and NIO.
        .target(
            name: "VettIDNats",
            dependencies: [
                "VettIDCore",
                "VettIDClient",
                "VettIDMessaging",
                "VettIDCrypto",
                "VettIDSession",
                "NATSClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // @Observable @MainActor view models over pure state machines (sign-in, enrollment, vault auth and status).
        .target(
            name: "VettIDViewModels",
            dependencies: ["VettIDCore", "VettIDClient", "VettIDMessaging"],
            swiftSettings: swiftSettings
        ),
        // The messaging status line's presentation (over VettIDNats's set-up and connection states).
        .target(
            name: "VettIDNatsViewModels",
            dependencies: ["VettIDCore", "VettIDNats", "VettIDViewModels"],
            swiftSettings: swiftSettings
        ),
        // SwiftUI views that only lay out VettIDViewModels' presentation values; every file is behind
        // `#if canImport(SwiftUI)`, type-checked on Linux by scripts/check-apple-only against Tests/AppleAPIShims.
        .target(
            name: "VettIDUI",
            dependencies: ["VettIDCore", "VettIDViewModels", "VettIDClient"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "VettIDNatsUI",
            dependencies: ["VettIDCore", "VettIDUI", "VettIDNatsViewModels", "VettIDNats", "VettIDViewModels"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDAttestationTests",
            dependencies: ["VettIDCore", "VettIDAttestation"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDVerificationTests",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                "VettIDAttestation",
                "VettIDVerification",
                "VettIDSoftwareAttestation",
                "VettIDTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDSoftwareAttestationTests",
            dependencies: [
                "VettIDCore",
                "VettIDAttestation",
                "VettIDVerification",
                "VettIDSoftwareAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDNatsViewModelsTests",
            dependencies: ["VettIDCore", "VettIDNatsViewModels", "VettIDViewModels", "VettIDNats", "VettIDClient"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDCryptoTests",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                "VettIDVerification",
                "VettIDTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDCoreTests",
            dependencies: ["VettIDCore", "VettIDTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDMessagingTests",
            dependencies: ["VettIDCore", "VettIDMessaging", "VettIDCrypto"],
            swiftSettings: swiftSettings
        ),
        // The session's worked example (Support/worked-example.json, read through #filePath) and every refusal.
        .testTarget(
            name: "VettIDSessionTests",
            dependencies: [
                "VettIDCore",
                "VettIDCrypto",
                "VettIDSession",
                "VettIDTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Support/worked-example.json"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NATSClientTests",
            dependencies: [
                "VettIDCore",
                "NATSClient",
                "VettIDCrypto",
                "VettIDTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support, for the tests of this package and of Server/: a real nats-server process, a throwaway PKI,
        // operator-mode JWTs, the `../shared/fixtures` loader, in-memory log capture, `eventually`.
        .target(
            name: "VettIDTestSupport",
            dependencies: [
                "VettIDCore",
                "NATSClient",
                "VettIDCrypto",
                "VettIDAttestation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/VettIDTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDTestSupportTests",
            dependencies: [
                "VettIDCore",
                "VettIDTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Against a real nats-server started by the tests on free loopback ports (skipped if it is absent).
        .testTarget(
            name: "NATSIntegrationTests",
            dependencies: [
                "VettIDCore",
                "NATSClient",
                "VettIDTestSupport",
                "VettIDCrypto",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The nats-py peer the tests run with python3 (found from the test file's path, not bundled).
            exclude: ["Resources"],
            swiftSettings: swiftSettings
        ),
        // The SDK's NATS layer (credentials, manager, token swaps, owner space) against a real nats-server in
        // operator mode (skipped if it is absent).
        .testTarget(
            name: "VettIDNatsIntegrationTests",
            dependencies: [
                "VettIDSession",
                .product(name: "Crypto", package: "swift-crypto"),
                "VettIDCore",
                "VettIDClient",
                "VettIDNats",
                "VettIDMessaging",
                "NATSClient",
                "VettIDCrypto",
                "VettIDTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Fixtures the SDK's test targets share (sample NATS credentials, a scripted credential provider).
        .target(
            name: "VettIDClientTestSupport",
            dependencies: ["VettIDCore", "VettIDClient", "VettIDMessaging"],
            path: "Tests/VettIDClientTestSupport",
            swiftSettings: swiftSettings
        ),
        // The NATS layer's unit tests (state machine, manager on a fake client, de-duplication).
        .testTarget(
            name: "VettIDNatsTests",
            dependencies: [
                "VettIDSession",
                .product(name: "Crypto", package: "swift-crypto"),
                "VettIDCore",
                "VettIDClient",
                "VettIDClientTestSupport",
                "VettIDNats",
                "VettIDMessaging",
                "NATSClient",
                "VettIDTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDClientTests",
            dependencies: [
                "VettIDCore",
                "VettIDClient",
                "VettIDClientTestSupport",
                "VettIDNats",
                "VettIDAPI",
                "VettIDCrypto",
                "VettIDAttestation",
                "VettIDVerification",
                "VettIDSoftwareAttestation",
                "VettIDSoftwareAttestationClient",
                "VettIDMessaging",
                "NATSClient",
                "VettIDTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VettIDViewModelsTests",
            dependencies: [
                "VettIDCore",
                "VettIDViewModels", "VettIDNats", "VettIDClient", "VettIDMessaging",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
