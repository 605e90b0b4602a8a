// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDSession

/// Writes `worked-example.json` anew: `VETTID_SESSION_WRITE_EXAMPLE=1 swift test --filter WorkedExampleGenerator`.
///
/// The fixed inputs are below; the vault's HPKE encapsulation and both ECDSA signatures are randomized inside
/// swift-crypto, so every run writes other `enc`, signatures and everything derived from them. The file is
/// committed and docs/protocol.md §7.3 quotes it: after regenerating, update the document's values.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["VETTID_SESSION_WRITE_EXAMPLE"] != nil))
struct WorkedExampleGenerator {
    static func fixedBytes(_ label: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("VettID session worked example: \(label)".utf8)))
    }

    @Test func writeWorkedExample() async throws {
        let device = try P256.Signing.PrivateKey(rawRepresentation: Self.fixedBytes("device key"))
        let vault = try P256.Signing.PrivateKey(rawRepresentation: Self.fixedBytes("vault identity key"))
        let identity = try VaultIdentityKey(kid: "vault-2026-1", privateKey: vault)
        let member = "3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b"
        let examples = [
            try await example(
                name: "suite 0x0001: an app that offers X25519 only", appSuites: [.x25519], nonceStart: 0x00,
                device: device, identity: identity, member: member),
            try await example(
                name: "suite 0x0002: an app that offers X-Wing, then X25519", appSuites: [.xWing, .x25519],
                nonceStart: 0x80, device: device, identity: identity, member: member),
        ]
        let file = WorkedExample(
            member_guid: member, device_private_key: Hex.encode(device.rawRepresentation),
            device_public_key: Hex.encode(device.publicKey.x963Representation),
            device_jkt: P256PublicJWK(publicKey: device.publicKey).thumbprint, vault_kid: identity.kid,
            vault_private_key: Hex.encode(vault.rawRepresentation),
            vault_public_key: Hex.encode(vault.publicKey.x963Representation), examples: examples)
        try file.encoded().write(to: WorkedExample.url)
        #expect(try WorkedExample.load().examples.count == 2)
    }

    private func example(
        name: String, appSuites: [SessionSuite], nonceStart: UInt8, device: P256.Signing.PrivateKey,
        identity: VaultIdentityKey, member: String
    ) async throws -> WorkedExample.Example {
        let timestamp: UInt64 = 1_767_225_600_000
        let clock = TestClock(milliseconds: timestamp)
        let keys = try appSuites.map { suite in
            try SessionEphemeralKey(suite: suite, seed: Self.fixedBytes("app \(suite.rawValue) ephemeral seed"))
        }
        let nonceA = countingBytes(from: nonceStart, count: 32)
        let nonceV = countingBytes(from: nonceStart &+ 0x20, count: 32)
        let sessionID = countingBytes(from: nonceStart &+ 0x40, count: 16)
        let initiator = SessionInitiator(
            memberGUID: member, deviceSigner: SoftwareDPoPSigner(privateKey: device), expectedVaultKID: identity.kid,
            suites: appSuites, clock: clock, random: ScriptedRandom())
        let pending = try await initiator.start(ephemeralKeys: keys, nonce: nonceA, timestampMilliseconds: timestamp)
        let vaultSuites: [SessionSuite] = [.xWing, .x25519]
        let responder = SessionResponder(
            configuration: .init(suites: vaultSuites), nonces: InMemoryHandshakeNonceCache(), clock: clock,
            random: ScriptedRandom([sessionID, nonceV]))
        let accepted = try responder.accept(
            responder.check(pending.initBytes, memberGUID: member), identity: identity)
        let response = try SessionResponse(parsing: accepted.responseBytes)
        let client = try pending.complete(
            response: accepted.responseBytes, pinnedVaultKeys: [identity.kid: identity.publicKey])

        let initHash = SessionKeySchedule.initHash(pending.initBytes)
        let info = SessionKeySchedule.hpkeInfo(initHash: initHash)
        let th = SessionKeySchedule.transcriptHash(
            initBytes: pending.initBytes, responseSignedBytes: response.signedBytes)
        let chosen = try #require(keys.first { $0.suite == response.suite })
        let secret = try Self.exportSecret(
            chosen, seed: Self.fixedBytes("app \(chosen.suite.rawValue) ephemeral seed"), enc: response.encapsulatedKey,
            info: info)
        let prk = SessionKeySchedule.pseudorandomKey(secret: secret, transcriptHash: th)
        let sessionKeys = SessionKeySchedule.keys(pseudorandomKey: prk)

        let request = try SessionInnerRequest(
            id: "0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1", handler: "echo", body: .object([("hello", .string("vault"))]),
            expiresAtMilliseconds: Int64(timestamp) + 30_000)
        let sealedRequest = try client.seal(request)
        let table = SealedSessionTable(clock: clock)
        table.insert(accepted.session)
        let admitted = try #require(table.open(sealedRequest.envelope, memberGUID: member).admitted)
        let answer = SessionInnerResponse.success(id: request.id, result: request.body)
        let responseEnvelope = try admitted.seal(answer)
        #expect(try client.openResponse(responseEnvelope, to: sealedRequest) == answer)

        func envelope(_ inner: [UInt8], _ bytes: [UInt8]) -> WorkedExample.Envelope {
            WorkedExample.Envelope(
                seq: 1, inner: String(decoding: inner, as: UTF8.self),
                padded_length: SessionPadding().paddedLength(forInnerLength: inner.count),
                header: Hex.encode(bytes.prefix(SessionEnvelopeHeader.length)), envelope: Hex.encode(bytes))
        }
        return WorkedExample.Example(
            name: name, suite: response.suite.rawValue, app_suites: appSuites.map(\.rawValue),
            ephemeral_keys: zip(appSuites, keys).map { suite, key in
                WorkedExample.EphemeralKey(
                    suite: suite.rawValue, seed: Hex.encode(Self.fixedBytes("app \(suite.rawValue) ephemeral seed")),
                    public_key: Hex.encode(key.publicKey))
            },
            timestamp_ms: timestamp, nonce_a: Hex.encode(nonceA),
            init_without_signature: Hex.encode(pending.sessionInit.signedBytes),
            device_signature: Hex.encode(pending.sessionInit.deviceSignature),
            init_bytes: Hex.encode(pending.initBytes),
            init_hash: Hex.encode(initHash), hpke_info: Hex.encode(info), vault_now_ms: timestamp,
            vault_suites: vaultSuites.map(\.rawValue), session_id: Hex.encode(sessionID), nonce_v: Hex.encode(nonceV),
            expires_at_ms: response.expiresAtMilliseconds, max_messages: response.maxMessages,
            enc: Hex.encode(response.encapsulatedKey), resp_without_signature: Hex.encode(response.signedBytes),
            th: Hex.encode(th), vault_signature: Hex.encode(response.vaultSignature),
            resp_bytes: Hex.encode(accepted.responseBytes), secret: Hex.encode(secret), prk: Hex.encode(prk),
            k_a2v: Hex.encode(sessionKeys.appToVault), k_v2a: Hex.encode(sessionKeys.vaultToApp),
            request: envelope(request.bytes, sealedRequest.envelope), response: envelope(answer.bytes, responseEnvelope)
        )
    }

    /// The HPKE half of the schedule, from the public swift-crypto API (not the module's own code path).
    static func exportSecret(_ key: SessionEphemeralKey, seed: [UInt8], enc: [UInt8], info: [UInt8]) throws -> [UInt8] {
        try WorkedExampleHPKE.exportSecret(suite: key.suite, seed: seed, enc: enc, info: info)
    }
}
