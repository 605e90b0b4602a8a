// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Testing
import VettIDCore
import VettIDCrypto
import VettIDSession

/// The app's checks of the vault's response, each with its code.
@Suite struct PendingSessionHandshakeTests {
    /// A started handshake, the vault's genuine response to it, and the harness.
    func exchange(
        suites: [SessionSuite] = [.xWing, .x25519]
    ) async throws -> (SessionHarness, PendingSessionHandshake, SessionResponse) {
        let harness = try SessionHarness()
        let pending = try await harness.initiator(suites: suites).start()
        let accepted = try harness.answer(pending.initBytes)
        return (harness, pending, try SessionResponse(parsing: accepted.responseBytes))
    }

    func code(
        _ pending: PendingSessionHandshake, _ bytes: [UInt8], pinned: [String: P256.Signing.PublicKey]
    ) -> SessionError.Code? {
        sessionErrorCode { _ = try pending.complete(response: bytes, pinnedVaultKeys: pinned) }
    }

    func rebuilt(
        _ response: SessionResponse, suite: SessionSuite? = nil, vaultSuites: [SessionSuite]? = nil,
        vaultKID: String? = nil, expiresAt: UInt64? = nil, enc: [UInt8]? = nil
    ) throws -> SessionResponse {
        try SessionResponse(
            suite: suite ?? response.suite, vaultSuites: vaultSuites ?? response.vaultSuites,
            sessionID: response.sessionID, nonce: response.nonce, vaultKID: vaultKID ?? response.vaultKID,
            expiresAtMilliseconds: expiresAt ?? response.expiresAtMilliseconds, maxMessages: response.maxMessages,
            encapsulatedKey: enc ?? response.encapsulatedKey, vaultSignature: response.vaultSignature)
    }

    @Test func theGenuineResponseCompletes() async throws {
        let (harness, pending, response) = try await exchange()
        let client = try pending.complete(response: response.bytes, pinnedVaultKeys: harness.pinned)
        #expect(client.suite == .xWing)
        #expect(client.sessionID == response.sessionID)
        #expect(client.vaultKID == SessionHarness.vaultKID)
        #expect(client.maxMessages == 1000)
        #expect(client.remainingRequests == 1000)
        #expect(client.isUsable())
        // A second session from the same handshake would reuse the first one's nonces.
        #expect(code(pending, response.bytes, pinned: harness.pinned) == .handshakeFailed)
    }

    @Test func aForgedVaultSignatureIsRefused() async throws {
        let (harness, pending, response) = try await exchange()
        var flipped = response.bytes
        flipped[flipped.count - 2] ^= 0x01
        #expect(code(pending, flipped, pinned: harness.pinned) == .badVaultSignature)
        // Signed by another key under the pinned kid.
        let th = SessionKeySchedule.transcriptHash(
            initBytes: pending.initBytes, responseSignedBytes: response.signedBytes)
        let forged = try response.signed(
            ES256.sign(SessionKeySchedule.responseSignatureInput(transcriptHash: th), with: P256.Signing.PrivateKey()))
        #expect(code(pending, forged.bytes, pinned: harness.pinned) == .badVaultSignature)
    }

    @Test func aResponseToAnotherInitFailsTheSignature() async throws {
        let (harness, _, response) = try await exchange()
        let other = try await harness.initiator(suites: [.xWing, .x25519]).start()
        #expect(code(other, response.bytes, pinned: harness.pinned) == .badVaultSignature)
    }

    @Test func anUnpinnedVaultKeyIsRefusedUntilThePinnedSetHasIt() async throws {
        let (harness, pending, response) = try await exchange()
        let stale = ["vault-2025-9": P256.Signing.PrivateKey().publicKey]
        #expect(code(pending, response.bytes, pinned: stale) == .vaultKeyNotPinned)
        // The SDK refreshes its pinned set over the DPoP-bound API and tries the same bytes again.
        let refreshed = stale.merging(harness.pinned) { old, _ in old }
        #expect(throws: Never.self) { _ = try pending.complete(response: response.bytes, pinnedVaultKeys: refreshed) }
        // The right kid pinned to another key is a bad signature, not a pass.
        #expect(
            code(pending, response.bytes, pinned: [SessionHarness.vaultKID: P256.Signing.PrivateKey().publicKey])
                == .badVaultSignature)
    }

    @Test func aVaultThatChoosesX25519WhileListingXWingIsADowngrade() async throws {
        let (harness, pending, response) = try await exchange()
        let downgraded = try rebuilt(response, suite: .x25519, enc: [UInt8](repeating: 9, count: 32))
        let signed = try harness.resign(downgraded, initBytes: pending.initBytes)
        #expect(code(pending, signed, pinned: harness.pinned) == .suiteDowngrade)
    }

    @Test func anAttackerWhoChangesTheChosenSuiteIsCaught() async throws {
        let (harness, pending, response) = try await exchange()
        // Only the suite changed: the vault's own list shows the downgrade.
        let suiteOnly = try rebuilt(response, suite: .x25519)
        #expect(code(pending, suiteOnly.bytes, pinned: harness.pinned) == .suiteDowngrade)
        // The suite list changed too (and enc to X25519's length): the vault signature no longer verifies.
        let rewritten = try rebuilt(
            response, suite: .x25519, vaultSuites: [.x25519], enc: [UInt8](repeating: 9, count: 32))
        #expect(code(pending, rewritten.bytes, pinned: harness.pinned) == .badVaultSignature)
    }

    @Test func aSuiteTheAppDidNotOfferIsADowngrade() async throws {
        let (harness, pending, response) = try await exchange(suites: [.x25519])
        let chosen = try rebuilt(
            response, suite: .xWing, vaultSuites: [.xWing], enc: [UInt8](repeating: 9, count: 1120))
        #expect(
            code(pending, try harness.resign(chosen, initBytes: pending.initBytes), pinned: harness.pinned)
                == .suiteDowngrade)
        let unknown = try rebuilt(
            response, suite: SessionSuite(rawValue: 0x0042), vaultSuites: [SessionSuite(rawValue: 0x0042)])
        #expect(
            code(pending, try harness.resign(unknown, initBytes: pending.initBytes), pinned: harness.pinned)
                == .suiteDowngrade)
    }

    @Test func encMustHaveTheSuitesLength() async throws {
        let (harness, pending, response) = try await exchange()
        let short = try rebuilt(response, enc: Array(response.encapsulatedKey.dropLast()))
        #expect(
            code(pending, try harness.resign(short, initBytes: pending.initBytes), pinned: harness.pinned)
                == .malformedHandshake)
    }

    @Test func aSmallOrderEncFailsTheKeyAgreement() async throws {
        let (harness, pending, response) = try await exchange(suites: [.x25519])
        let zero = try rebuilt(response, enc: [UInt8](repeating: 0, count: 32))
        #expect(
            code(pending, try harness.resign(zero, initBytes: pending.initBytes), pinned: harness.pinned)
                == .keyAgreementFailed)
    }

    @Test func anExpiredSessionIsStale() async throws {
        let (harness, pending, response) = try await exchange()
        harness.clock.set(milliseconds: response.expiresAtMilliseconds)
        #expect(code(pending, response.bytes, pinned: harness.pinned) == .staleHandshake)
    }

    @Test func aPlaintextRefusalIsThrownAsItsCode() async throws {
        let (harness, pending, _) = try await exchange()
        let refusal = SessionRefusal(SessionError(.unknownDevice, "this device is not enrolled")).bytes
        #expect(code(pending, refusal, pinned: harness.pinned) == .unknownDevice)
        #expect(code(pending, Array("{not json".utf8), pinned: harness.pinned) == .malformedHandshake)
    }

    @Test func everyTruncationIsMalformed() async throws {
        let (harness, pending, response) = try await exchange(suites: [.x25519])
        let bytes = response.bytes
        for length in 0..<bytes.count {
            #expect(
                code(pending, Array(bytes.prefix(length)), pinned: harness.pinned) == .malformedHandshake, "\(length)")
        }
    }
}
