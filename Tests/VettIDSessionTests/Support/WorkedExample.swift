// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The worked example of docs/protocol.md §7.3 (`Support/worked-example.json`): fixed inputs, the messages the
/// run of ``WorkedExampleGenerator`` produced from them, and every intermediate value, in hex.
struct WorkedExample: Codable {
    struct EphemeralKey: Codable {
        let suite: UInt16
        let seed: String
        let public_key: String
    }

    struct Envelope: Codable {
        let seq: UInt64
        let inner: String
        let padded_length: Int
        let header: String
        let envelope: String
    }

    struct Example: Codable {
        let name: String
        let suite: UInt16
        let app_suites: [UInt16]
        let ephemeral_keys: [EphemeralKey]
        let timestamp_ms: UInt64
        let nonce_a: String
        let init_without_signature: String
        let device_signature: String
        let init_bytes: String
        let init_hash: String
        let hpke_info: String
        let vault_now_ms: UInt64
        let vault_suites: [UInt16]
        let session_id: String
        let nonce_v: String
        let expires_at_ms: UInt64
        let max_messages: UInt32
        let enc: String
        let resp_without_signature: String
        let th: String
        let vault_signature: String
        let resp_bytes: String
        let secret: String
        let prk: String
        let k_a2v: String
        let k_v2a: String
        let request: Envelope
        let response: Envelope
    }

    let member_guid: String
    let device_private_key: String
    let device_public_key: String
    let device_jkt: String
    let vault_kid: String
    let vault_private_key: String
    let vault_public_key: String
    let examples: [Example]

    /// The committed file, found from this source file's path.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("worked-example.json")

    static func load() throws -> WorkedExample {
        try JSONDecoder().decode(WorkedExample.self, from: Data(contentsOf: url))
    }

    /// Pretty, sorted JSON with a final newline.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
