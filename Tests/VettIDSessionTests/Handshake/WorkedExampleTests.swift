// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDSession

/// The worked example of docs/protocol.md §7.3, checked from its fixed inputs: both messages parse and rebuild byte
/// for byte, both signatures verify, every derived value recomputes (HPKE, HKDF and the AEAD also on paths written
/// straight on swift-crypto), the example envelopes open, and the module reseals them byte-identically.
@Suite struct WorkedExampleTests {
    static let example = Result { try WorkedExample.load() }

    static func file() throws -> WorkedExample { try example.get() }

    static func bytes(_ hex: String) throws -> [UInt8] { try #require(Hex.decode(hex), "not hex: \(hex.prefix(16))") }

    @Test func theFileHoldsBothSuites() throws {
        let file = try Self.file()
        #expect(file.examples.map(\.suite) == [0x0001, 0x0002])
        #expect(file.member_guid == "3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b")
        #expect(file.vault_kid == "vault-2026-1")
    }

    @Test func fixedKeysMatchTheirPublicHalves() throws {
        let file = try Self.file()
        let device = try P256.Signing.PrivateKey(rawRepresentation: Self.bytes(file.device_private_key))
        #expect(Array(device.publicKey.x963Representation) == (try Self.bytes(file.device_public_key)))
        #expect(P256PublicJWK(publicKey: device.publicKey).thumbprint == file.device_jkt)
        let vault = try P256.Signing.PrivateKey(rawRepresentation: Self.bytes(file.vault_private_key))
        #expect(Array(vault.publicKey.x963Representation) == (try Self.bytes(file.vault_public_key)))
    }

    @Test(arguments: [0, 1]) func initRebuildsAndVerifies(index: Int) throws {
        let file = try Self.file()
        let example = file.examples[index]
        let device = try P256.Signing.PublicKey(x963Representation: Self.bytes(file.device_public_key))
        let keys = try ephemeralKeys(example)
        let rebuilt = try SessionInit(
            memberGUID: file.member_guid, devicePublicKey: device, vaultKID: file.vault_kid,
            timestampMilliseconds: example.timestamp_ms, nonce: Self.bytes(example.nonce_a),
            offers: keys.map(SessionOffer.init))
        #expect(rebuilt.signedBytes == (try Self.bytes(example.init_without_signature)))
        let signed = try rebuilt.signed(Self.bytes(example.device_signature))
        #expect(signed.bytes == (try Self.bytes(example.init_bytes)))

        let parsed = try SessionInit(parsing: Self.bytes(example.init_bytes))
        #expect(parsed == signed)
        #expect(parsed.offers.map(\.suite.rawValue) == example.app_suites)
        #expect(parsed.deviceThumbprint == file.device_jkt)
        #expect(parsed.hasValidDeviceSignature)
        // ES256 over the label and the unsigned init, verified without the module.
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(example.device_signature))
        let input = Array("VettID session v1 init".utf8) + (try Self.bytes(example.init_without_signature))
        #expect(device.isValidSignature(signature, for: input))
        #expect(Array(SHA256.hash(data: try Self.bytes(example.init_bytes))) == (try Self.bytes(example.init_hash)))
        #expect(
            Array("VettID session v1".utf8) + (try Self.bytes(example.init_hash)) == (try Self.bytes(example.hpke_info))
        )
    }

    @Test(arguments: [0, 1]) func responseParsesAndVerifies(index: Int) throws {
        let file = try Self.file()
        let example = file.examples[index]
        let response = try SessionResponse(parsing: Self.bytes(example.resp_bytes))
        #expect(response.suite.rawValue == example.suite)
        #expect(response.vaultSuites.map(\.rawValue) == example.vault_suites)
        #expect(response.sessionID.bytes == (try Self.bytes(example.session_id)))
        #expect(response.nonce == (try Self.bytes(example.nonce_v)))
        #expect(response.vaultKID == file.vault_kid)
        #expect(response.expiresAtMilliseconds == example.expires_at_ms)
        #expect(response.expiresAtMilliseconds == example.vault_now_ms + 86_400_000)
        #expect(response.maxMessages == example.max_messages)
        #expect(response.encapsulatedKey == (try Self.bytes(example.enc)))
        #expect(response.encapsulatedKey.count == (example.suite == 1 ? 32 : 1120))
        #expect(response.vaultSignature == (try Self.bytes(example.vault_signature)))
        #expect(response.signedBytes == (try Self.bytes(example.resp_without_signature)))
        #expect(response.bytes == (try Self.bytes(example.resp_bytes)))

        let th = Array(
            SHA256.hash(data: try Self.bytes(example.init_bytes) + Self.bytes(example.resp_without_signature)))
        #expect(th == (try Self.bytes(example.th)))
        #expect(
            SessionKeySchedule.transcriptHash(
                initBytes: try Self.bytes(example.init_bytes), responseSignedBytes: response.signedBytes) == th)
        let vault = try P256.Signing.PublicKey(x963Representation: Self.bytes(file.vault_public_key))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: response.vaultSignature)
        #expect(vault.isValidSignature(signature, for: Array("VettID session v1 resp".utf8) + th))
    }

    @Test(arguments: [0, 1]) func everyDerivedValueRecomputes(index: Int) throws {
        let example = try Self.file().examples[index]
        let seed = try #require(example.ephemeral_keys.first { $0.suite == example.suite }).seed
        let secret = try WorkedExampleHPKE.exportSecret(
            suite: SessionSuite(rawValue: example.suite), seed: Self.bytes(seed), enc: Self.bytes(example.enc),
            info: Self.bytes(example.hpke_info))
        #expect(secret == (try Self.bytes(example.secret)))

        // HKDF (RFC 5869) written out with HMAC-SHA256: prk = HMAC(th, secret); k = HMAC(prk, label || 0x01).
        let th = try Self.bytes(example.th)
        let prk = Array(HMAC<SHA256>.authenticationCode(for: secret, using: SymmetricKey(data: th)))
        #expect(prk == (try Self.bytes(example.prk)))
        func expand(_ label: String) -> [UInt8] {
            Array(HMAC<SHA256>.authenticationCode(for: Array(label.utf8) + [0x01], using: SymmetricKey(data: prk)))
        }
        #expect(expand("VettID session v1 app to vault") == (try Self.bytes(example.k_a2v)))
        #expect(expand("VettID session v1 vault to app") == (try Self.bytes(example.k_v2a)))

        #expect(SessionKeySchedule.pseudorandomKey(secret: secret, transcriptHash: th) == prk)
        let keys = SessionKeySchedule.keys(pseudorandomKey: prk)
        #expect(keys.appToVault == (try Self.bytes(example.k_a2v)))
        #expect(keys.vaultToApp == (try Self.bytes(example.k_v2a)))
    }

    @Test(arguments: [0, 1]) func envelopesOpenWithoutTheModule(index: Int) throws {
        let example = try Self.file().examples[index]
        for (envelope, key, flags) in [
            (example.request, example.k_a2v, UInt8(0)), (example.response, example.k_v2a, UInt8(1)),
        ] {
            let bytes = try Self.bytes(envelope.envelope)
            let header = Array(bytes.prefix(28))
            #expect(header == (try Self.bytes(envelope.header)))
            var expectedHeader: [UInt8] = [0x01, UInt8(example.suite >> 8), UInt8(example.suite & 0xFF), flags]
            expectedHeader += try Self.bytes(example.session_id)
            expectedHeader += [0, 0, 0, 0, 0, 0, 0, UInt8(envelope.seq)]
            #expect(header == expectedHeader)
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: [0, 0, 0, 0] + header.suffix(8)),
                ciphertext: bytes[28..<(bytes.count - 16)],
                tag: bytes.suffix(16))
            let padded = Array(
                try ChaChaPoly.open(box, using: SymmetricKey(data: Self.bytes(key)), authenticating: header))
            #expect(padded.count == envelope.padded_length)
            let inner = Array(envelope.inner.utf8)
            #expect(padded == inner + [0x80] + [UInt8](repeating: 0, count: envelope.padded_length - inner.count - 1))
        }
        #expect(example.request.inner.contains("\"handler\":\"echo\""))
        #expect(example.response.inner.hasPrefix("{\"id\":\"0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1\",\"ok\":true"))
    }

    @Test(arguments: [0, 1]) func theAppSideReachesTheSameSessionAndResealsByteIdentically(index: Int) async throws {
        let file = try Self.file()
        let example = file.examples[index]
        let clock = TestClock(milliseconds: example.timestamp_ms)
        let pending = PendingSessionHandshake(
            sessionInit: try SessionInit(parsing: Self.bytes(example.init_bytes)),
            ephemeralKeys: try ephemeralKeys(example), clock: clock)
        let vault = try P256.Signing.PublicKey(x963Representation: Self.bytes(file.vault_public_key))
        let client = try pending.complete(
            response: Self.bytes(example.resp_bytes), pinnedVaultKeys: [file.vault_kid: vault])
        #expect(client.sessionID.bytes == (try Self.bytes(example.session_id)))
        #expect(client.suite.rawValue == example.suite)

        let request = try SessionInnerRequest(decoding: Array(example.request.inner.utf8))
        let sealed = try client.seal(request)
        #expect(sealed.sequence == example.request.seq)
        #expect(sealed.envelope == (try Self.bytes(example.request.envelope)))
        let response = try client.openResponse(Self.bytes(example.response.envelope), to: sealed)
        #expect(response == (try SessionInnerResponse(decoding: Array(example.response.inner.utf8))))
        #expect(response == .success(id: request.id, result: request.body))

        let channel = SessionChannel(
            sessionID: client.sessionID, suite: client.suite,
            keys: SessionKeySchedule.keys(pseudorandomKey: try Self.bytes(example.prk)))
        #expect(
            try channel.sealRequest(Array(example.request.inner.utf8), sequence: 1)
                == (try Self.bytes(example.request.envelope)))
        #expect(
            try channel.sealResponse(Array(example.response.inner.utf8), sequence: 1)
                == (try Self.bytes(example.response.envelope)))
    }

    @Test(arguments: [0, 1]) func theVaultAcceptsTheInitAtItsTime(index: Int) throws {
        let example = try Self.file().examples[index]
        let responder = SessionResponder(
            configuration: .init(suites: example.vault_suites.map(SessionSuite.init(rawValue:))),
            nonces: InMemoryHandshakeNonceCache(), clock: TestClock(milliseconds: example.vault_now_ms))
        let checked = try responder.check(Self.bytes(example.init_bytes), memberGUID: try Self.file().member_guid)
        #expect(checked.suite.rawValue == example.suite)
        #expect(checked.deviceThumbprint == (try Self.file().device_jkt))
    }

    private func ephemeralKeys(_ example: WorkedExample.Example) throws -> [SessionEphemeralKey] {
        try example.ephemeral_keys.map { key in
            let ephemeral = try SessionEphemeralKey(
                suite: SessionSuite(rawValue: key.suite), seed: Self.bytes(key.seed))
            #expect(ephemeral.publicKey == (try Self.bytes(key.public_key)))
            return ephemeral
        }
    }
}
