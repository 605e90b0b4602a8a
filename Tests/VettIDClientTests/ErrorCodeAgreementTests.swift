// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The wire's error codes are defined once, in the error table of `openapi.yaml` (the server's
/// `ErrorCodeCatalogueTests` holds the server to the same table): every code there has an `APIError.Code` constant
/// in the SDK, and every `APIError.Code` constant is either in the table or one of the SDK's own client-side codes
/// listed here with why. A code used on one side only fails this test.
@Suite("Error codes: one table for the wire")
struct ErrorCodeAgreementTests {
    /// Codes the SDK raises itself; the server never sends them.
    static let clientOnly: [String: String] = [
        "network_error": "no answer arrived",
        "invalid_response": "an answer the SDK cannot read",
        "http_error": "a non-2xx answer without an error body",
        "not_authenticated": "no session to send or refresh",
        "reauthentication_required": "the vault session is missing or expired and cannot be renewed here",
        "sign_in_required": "the member session has ended",
        "lat_mismatch": "the device's anti-phishing check of the server's LAT",
        "attestation_failed": "the device could not attest its key",
        "device_key_failed": "the device key could not sign",
        "encryption_failed": "the device could not seal the password",
        "no_transaction_key": "the stored credential has no transaction key left",
        "storage_failed": "the secure store could not be written",
        "untrusted_origin": "an invitation names a server the app does not trust",
        "account_exists": "answered by servers before 2026-11-25 to a repeated NATS account creation",
    ]

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The codes of the error table at the top of openapi.yaml (`| code | status | meaning |`).
    static func wireCodes() throws -> Set<String> {
        let spec = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let row = try Regex(#"^    \| ([a-z_]+) \| [0-9 /]+ \|"#).anchorsMatchLineEndings()
        return Set(spec.matches(of: row).compactMap { $0.output[1].substring.map(String.init) })
    }

    /// The `Code(rawValue:)` constants of `APIError.Code` (in the files that declare or extend `APIError`).
    static func clientCodes() throws -> Set<String> {
        let sources = root.appendingPathComponent("Sources/VettIDClient")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let constant = try Regex(#"Code\(rawValue: "([a-z_]+)"\)"#)
        var codes: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains("extension APIError") || text.contains("struct APIError") else { continue }
            codes.formUnion(text.matches(of: constant).compactMap { $0.output[1].substring.map(String.init) })
        }
        return codes
    }

    @Test func everyWireCodeHasAClientConstantAndEveryClientConstantIsWireOrListed() throws {
        let wire = try Self.wireCodes()
        let client = try Self.clientCodes()
        #expect(wire.count >= 50, "the table was read")
        #expect(client.count >= 50, "the constants were read")
        #expect(wire.subtracting(client).sorted() == [], "server codes without an SDK constant")
        #expect(
            client.subtracting(wire).subtracting(Self.clientOnly.keys).sorted() == [],
            "SDK codes the server never sends")
        #expect(
            Set(Self.clientOnly.keys).intersection(wire).sorted() == [], "a client-only code is on the wire after all")
        #expect(
            Set(Self.clientOnly.keys).subtracting(client).sorted() == [], "a listed client-only code no longer exists")
    }
}
