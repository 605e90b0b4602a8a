// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Crypto
import Foundation
import VettIDCrypto
import VettIDMessaging
import VettIDSession

/// The sealed session's cost in process, without NATS: a full handshake per session against the floor of any
/// signed Diffie-Hellman handshake, and the per-request sealing against plaintext JSON.
///
/// - **Handshake**: the app builds and signs the init (`SessionInitiator.start`: its ephemeral keys, ES256 with the
///   device key), the vault checks it (`SessionResponder.check`: layout, suite, clock, nonce, device signature) and
///   accepts it (`accept`: nonce recorded, HPKE encapsulation, the response signed with the vault identity key),
///   the app opens the response (`PendingSessionHandshake.complete`: suite, pinned kid, vault signature, HPKE
///   decapsulation, key schedule). The vault's device lookup (a store read) is not part of it.
/// - **Floor**: one bare P-256 ECDSA sign, one verify and one X25519 agreement (swift-crypto, keys made
///   beforehand): the least a signed DH handshake does. **Both sides' floor**: what a mutually signed ephemeral DH
///   handshake does at least, each side one ephemeral X25519 key, one agreement, one sign and one verify.
/// - **X-Wing KEM**: key generation, encapsulation and decapsulation of X-Wing alone (what the hybrid suite adds).
/// - **Per request**: a request sealed by the app, opened by the vault (`SealedSessionTable.open`), its answer
///   sealed and opened by the app, against its floor (ChaCha20-Poly1305 alone: a 512-byte bucket sealed and opened
///   with a 28-byte header as additional data, twice) and against the plaintext path's JSON: the `execute` message
///   and its `handler_result` encoded and decoded.
///
/// The paths run in alternating rounds; each round's mean per operation is one value.
enum HandshakeBenchmark {
    /// Mean µs per operation of each path, one value per round.
    struct Result {
        var floor: [Double] = []
        var bothSidesFloor: [Double] = []
        var x25519: [Double] = []
        var xWing: [Double] = []
        var xWingKEM: [Double] = []
        var sealOpen: [Double] = []
        var aead: [Double] = []
        var plaintextJSON: [Double] = []
    }

    static let memberGUID = "0f4c9a52-6d1e-4b7a-9c3d-2e8f1a6b5c40"

    static func run(handshakes: Int, requests: Int, rounds: Int) async throws -> Result {
        let perRound = max(handshakes / rounds, 1)
        let requestsPerRound = min(max(requests / rounds, 1), 1000)
        let vault = try InProcessVault()
        let device = SoftwareDPoPSigner()
        let x25519 = SessionInitiator(
            memberGUID: memberGUID, deviceSigner: device, expectedVaultKID: vault.identity.kid, suites: [.x25519])
        let xWing = SessionInitiator(
            memberGUID: memberGUID, deviceSigner: device, expectedVaultKID: vault.identity.kid,
            suites: [.xWing, .x25519])
        let floor = Floor()
        let payload: JSONValue = .object([("n", .integer(1))])

        // Warm-up: both handshakes (each on the suite expected) and the floor.
        guard try await vault.handshake(x25519).client.suite == .x25519,
            try await vault.handshake(xWing).client.suite == .xWing
        else { throw BenchFailure("the handshakes did not settle on the suites offered") }
        _ = try await time(perRound) { try floor.signVerifyAgree() }

        var result = Result()
        for _ in 0..<rounds {
            result.floor.append(try await time(perRound) { try floor.signVerifyAgree() })
            result.bothSidesFloor.append(try await time(perRound) { try floor.bothSides() })
            result.x25519.append(try await time(perRound) { _ = try await vault.handshake(x25519) })
            result.xWing.append(try await time(perRound) { _ = try await vault.handshake(xWing) })
            result.xWingKEM.append(try await time(perRound) { try floor.xWingKEM() })
            let (client, session) = try await vault.handshake(xWing)
            vault.table.insert(session)
            result.sealOpen.append(
                try await time(requestsPerRound) { try await vault.sealedEcho(payload, client: client) })
            result.aead.append(try await time(requestsPerRound) { try floor.sealAndOpenTwice() })
            result.plaintextJSON.append(try await time(requestsPerRound) { try plaintextEcho(payload) })
        }
        return result
    }

    /// Mean µs of `count` runs of `body`.
    private static func time(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<count { try await body() }
        return (clock.now - started).microseconds / Double(count)
    }

    /// The plaintext path's JSON work for one `echo`: the app encodes `execute`, the worker decodes it, encodes
    /// the `handler_result`, the app decodes it.
    private static func plaintextEcho(_ payload: JSONValue) throws {
        let request = VaultMessage.executeHandler(id: "r1", handlerID: "echo", payload: payload, timestamp: 1)
        guard case .executeHandler(let id, _, let body, _) = try VaultMessage.decode(request.encoded()) else {
            throw BenchFailure("the execute message did not decode as one")
        }
        let answer = VaultResponse.handlerResult(requestID: id, handlerID: "echo", result: .success(body), timestamp: 1)
        guard try VaultResponse.decode(answer.encoded()).isSuccess else { throw BenchFailure("the answer failed") }
    }

    /// The vault's side in process: a responder with its nonce cache, an identity key, a session table.
    private struct InProcessVault {
        let responder = SessionResponder(nonces: InMemoryHandshakeNonceCache())
        let identity: VaultIdentityKey
        let pinned: [String: P256.Signing.PublicKey]
        let table = SealedSessionTable()

        init() throws {
            identity = try VaultIdentityKey(kid: "vault-session-1", privateKey: P256.Signing.PrivateKey())
            pinned = [identity.kid: identity.publicKey]
        }

        /// One full handshake: the app's session and the vault's.
        func handshake(_ initiator: SessionInitiator) async throws -> (
            client: SealedSessionClient, vault: SealedSession
        ) {
            let pending = try await initiator.start()
            let checked = try responder.check(pending.initBytes, memberGUID: HandshakeBenchmark.memberGUID)
            let accepted = try responder.accept(checked, identity: identity)
            return (try pending.complete(response: accepted.responseBytes, pinnedVaultKeys: pinned), accepted.session)
        }

        /// One sealed `echo` in process: sealed by the app, opened by the vault's table, answered sealed, opened.
        func sealedEcho(_ payload: JSONValue, client: SealedSessionClient) async throws {
            let request = try client.sealRequest(handler: "echo", body: payload)
            guard
                case .admitted(let admitted) = table.open(
                    request.envelope, memberGUID: HandshakeBenchmark.memberGUID)
            else { throw BenchFailure("the vault refused a sealed request") }
            let answer = try admitted.sealResult(admitted.request.body)
            guard case .success = try client.openResponse(answer, to: request) else {
                throw BenchFailure("a sealed echo failed")
            }
        }
    }

    /// The bare primitives, with swift-crypto alone.
    private struct Floor {
        let signingKey = P256.Signing.PrivateKey()
        let peerSigningKey = P256.Signing.PrivateKey()
        let agreementKey = Curve25519.KeyAgreement.PrivateKey()
        let peerAgreementKey: Curve25519.KeyAgreement.PublicKey
        let message: [UInt8] = Array(SHA256.hash(data: Array("VettID session v1 transcript".utf8)))
        let sessionKey = SymmetricKey(size: .bits256)
        let bucket = [UInt8](repeating: 0x80, count: SessionPadding.blockLength)
        let header = [UInt8](repeating: 0x01, count: SessionEnvelopeHeader.length)

        init() {
            peerAgreementKey = Curve25519.KeyAgreement.PrivateKey().publicKey
        }

        /// One sign, one verify, one X25519 agreement.
        func signVerifyAgree() throws {
            let signature = try signingKey.signature(for: message)
            guard signingKey.publicKey.isValidSignature(signature, for: message) else {
                throw BenchFailure("a bare signature did not verify")
            }
            _ = try agreementKey.sharedSecretFromKeyAgreement(with: peerAgreementKey)
        }

        /// Both sides of a mutually signed ephemeral DH handshake, at least: each makes an ephemeral X25519 key,
        /// agrees, signs and verifies the other's signature.
        func bothSides() throws {
            let appEphemeral = Curve25519.KeyAgreement.PrivateKey()
            let appSignature = try signingKey.signature(for: message)
            guard signingKey.publicKey.isValidSignature(appSignature, for: message) else {
                throw BenchFailure("a bare signature did not verify")
            }
            let vaultEphemeral = Curve25519.KeyAgreement.PrivateKey()
            let vaultSecret = try vaultEphemeral.sharedSecretFromKeyAgreement(with: appEphemeral.publicKey)
            let vaultSignature = try peerSigningKey.signature(for: message)
            guard peerSigningKey.publicKey.isValidSignature(vaultSignature, for: message) else {
                throw BenchFailure("a bare signature did not verify")
            }
            let appSecret = try appEphemeral.sharedSecretFromKeyAgreement(with: vaultEphemeral.publicKey)
            guard appSecret == vaultSecret else { throw BenchFailure("the bare agreements differ") }
        }

        /// What sealing one request and its answer needs at least: a 512-byte bucket sealed and opened with
        /// ChaCha20-Poly1305 and a header as additional data, once each way.
        func sealAndOpenTwice() throws {
            for counter in 0..<2 {
                let nonce = try ChaChaPoly.Nonce(data: [UInt8](repeating: UInt8(counter), count: 12))
                let box = try ChaChaPoly.seal(bucket, using: sessionKey, nonce: nonce, authenticating: header)
                guard try ChaChaPoly.open(box, using: sessionKey, authenticating: header).count == bucket.count else {
                    throw BenchFailure("a bare ChaCha20-Poly1305 box did not open")
                }
            }
        }

        /// X-Wing alone: a key pair, an encapsulation to it, its decapsulation.
        func xWingKEM() throws {
            let key = try XWingMLKEM768X25519.PrivateKey.generate()
            let encapsulated = try key.publicKey.encapsulate()
            guard try key.decapsulate(encapsulated.encapsulated) == encapsulated.sharedSecret else {
                throw BenchFailure("the X-Wing secrets differ")
            }
        }
    }
}
