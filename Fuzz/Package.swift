// swift-tools-version: 6.2
// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer targets for the parsers and verifiers that read untrusted bytes. Build and run them with
// scripts/fuzz (swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library, into .build-fuzz):
//
//   nats-decoder          NATSDecoderFuzzer          NATSProtocolDecoder (server-to-client protocol)
//   appattest-authdata    AuthenticatorDataFuzzer    AuthenticatorData, AssertionAuthenticatorData, CBOR maps
//   appattest-assertion   AppAttestAssertionFuzzer   AppAttestVerifier.verifyAssertion (CBOR, signature, counter)
//   appattest-attestation AppAttestAttestationFuzzer AppAttestVerifier.verifyAttestation (CBOR, x5c, chain)
//   dpop-proof            DPoPProofFuzzer            CompactJWS, DPoPVerifier, DPoPTargetURI
//   vault-message         VaultMessageFuzzer         VaultMessage.decode, VaultResponse.decode
//   session               SessionFuzzer              SessionInit, SessionResponse, envelopes, VaultSessionStore.open
//   webauthn              WebAuthnFuzzer             WebAuthn authenticator data, attestation objects, client data,
//                                                    PasskeyRelyingParty's assertion and registration checks
//
// Seed corpora live in Fuzz/corpus/<target>/ (committed); scripts/fuzz keeps the growing corpus outside git.

import PackageDescription

/// One libFuzzer executable: `FuzzSupport` brings the driver and the shared oracles.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies)
}

/// The App Attest verifier and the software attester that mints valid inputs for it.
let appAttest: [Target.Dependency] = [
    .product(name: "VettIDAttestation", package: "VettID"),
    .product(name: "VettIDVerification", package: "VettID"),
    .product(name: "VettIDSoftwareAttestation", package: "VettID"),
]

let package = Package(
    name: "VettIDFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named, so the products resolve whatever the checkout directory is called (a path dependency's identity is
        // otherwise its directory name).
        .package(name: "VettID", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        // The driver entry point, a reference CBOR reader and a synchronous bridge for async verifiers.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        // The decoder's sources are compiled into the fuzzer itself (Sources/NATSDecoderFuzzer/NATSProtocol links to
        // Sources/NATSClient/Protocol, which needs only NIOCore and VettIDCore): depending on NATSClient would build NIOPosix,
        // NIOSSL and its BoringSSL, ServiceLifecycle and the rest of the connection with sanitizers for nothing.
        fuzzer(
            "NATSDecoderFuzzer",
            [.product(name: "NIOCore", package: "swift-nio"), .product(name: "VettIDCore", package: "VettID")]
        ),
        fuzzer("AuthenticatorDataFuzzer", [.product(name: "VettIDAttestation", package: "VettID")]),
        fuzzer("AppAttestAssertionFuzzer", appAttest),
        fuzzer("AppAttestAttestationFuzzer", appAttest),
        fuzzer(
            "DPoPProofFuzzer",
            [
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
            ]),
        fuzzer(
            "VaultMessageFuzzer",
            [
                .product(name: "VettIDMessaging", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
            ]),
        fuzzer(
            "WebAuthnFuzzer",
            [
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDAttestation", package: "VettID"),
                .product(name: "VettIDVerification", package: "VettID"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        fuzzer(
            "SessionFuzzer",
            [
                .product(name: "VettIDCore", package: "VettID"),
                .product(name: "VettIDCrypto", package: "VettID"),
                .product(name: "VettIDSession", package: "VettID"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
    ]
)
