// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Testing
import VettIDCore
import VettIDCrypto
import VettIDSession

/// The vault's checks of an init, each with its code, and the choice of suite.
@Suite struct SessionResponderTests {
    @Test func aValidInitIsAcceptedWithThePreferredCommonSuite() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        let checked = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.memberGUID)
        #expect(checked.suite == .xWing)
        #expect(checked.deviceThumbprint == harness.device.publicJWK.thumbprint)
        #expect(checked.expectedVaultKID == SessionHarness.vaultKID)
        let accepted = try harness.responder.accept(checked, identity: harness.identity)
        #expect(accepted.session.memberGUID == SessionHarness.memberGUID)
        #expect(accepted.session.deviceThumbprint == harness.device.publicJWK.thumbprint)
        #expect(accepted.session.suite == .xWing)
        #expect(accepted.session.expiresAtMilliseconds == SessionHarness.start + 86_400_000)
        #expect(accepted.session.maxMessages == 1000)
        let response = try SessionResponse(parsing: accepted.responseBytes)
        #expect(response.vaultSuites == SessionSuite.available)
        #expect(response.encapsulatedKey.count == 1120)
    }

    @Test func theAppsPreferenceDecidesAmongCommonSuites() async throws {
        let harness = try SessionHarness(vaultSuites: [.x25519, .xWing])
        let xWingFirst = try await harness.initiator(suites: [.xWing, .x25519]).start()
        #expect(
            try harness.responder.check(xWingFirst.initBytes, memberGUID: SessionHarness.memberGUID).suite == .xWing)
        let x25519First = try await harness.initiator(suites: [.x25519, .xWing]).start()
        #expect(
            try harness.responder.check(x25519First.initBytes, memberGUID: SessionHarness.memberGUID).suite == .x25519)
    }

    @Test func anUnknownOfferedSuiteIsSkipped() async throws {
        let harness = try SessionHarness()
        let device = P256.Signing.PrivateKey()
        let key = try SessionEphemeralKey.generate(suite: .x25519, random: harness.random)
        let unsigned = try SessionInit(
            memberGUID: SessionHarness.memberGUID, devicePublicKey: device.publicKey, vaultKID: "k",
            timestampMilliseconds: SessionHarness.start, nonce: harness.random.bytes(32),
            offers: [
                SessionOffer(suite: SessionSuite(rawValue: 0x7777), ephemeralPublicKey: [1, 2]), SessionOffer(key),
            ])
        let signed = try unsigned.signed(ES256.sign(unsigned.signatureInput, with: device))
        #expect(try harness.responder.check(signed.bytes, memberGUID: SessionHarness.memberGUID).suite == .x25519)
    }

    @Test func noCommonSuite() async throws {
        let harness = try SessionHarness(vaultSuites: [.x25519])
        let pending = try await harness.initiator(suites: [.xWing]).start()
        #expect(
            sessionErrorCode {
                _ = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.memberGUID)
            }
                == .noCommonSuite)
    }

    @Test func memberMismatch() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        #expect(
            sessionErrorCode {
                _ = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.otherMemberGUID)
            }
                == .memberMismatch)
    }

    @Test func staleTimestampsBothWays() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        func code() -> SessionError.Code? {
            sessionErrorCode {
                _ = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.memberGUID)
            }
        }
        harness.clock.set(milliseconds: SessionHarness.start + 300_000)
        #expect(code() == nil)
        harness.clock.set(milliseconds: SessionHarness.start + 300_001)
        #expect(code() == .staleHandshake)
        harness.clock.set(milliseconds: SessionHarness.start - 300_000)
        #expect(code() == nil)
        harness.clock.set(milliseconds: SessionHarness.start - 300_001)
        #expect(code() == .staleHandshake)
    }

    @Test func aForgedDeviceSignatureIsRefused() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        var flipped = pending.initBytes
        flipped[flipped.count - 1] ^= 0x01
        #expect(
            sessionErrorCode { _ = try harness.responder.check(flipped, memberGUID: SessionHarness.memberGUID) }
                == .badDeviceSignature)
        // Signed by another key while naming the enrolled device's key.
        let forged = try pending.sessionInit.signed(ES256.sign(pending.sessionInit.signatureInput, with: .init()))
        #expect(
            sessionErrorCode { _ = try harness.responder.check(forged.bytes, memberGUID: SessionHarness.memberGUID) }
                == .badDeviceSignature)
    }

    @Test func strippingTheXWingOfferBreaksTheDeviceSignature() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator(suites: [.xWing, .x25519]).start()
        let original = pending.sessionInit
        let stripped = try SessionInit(
            memberGUID: original.memberGUID, devicePublicKey: original.devicePublicKey, vaultKID: original.vaultKID,
            timestampMilliseconds: original.timestampMilliseconds, nonce: original.nonce,
            offers: original.offers.filter { $0.suite != .xWing }, deviceSignature: original.deviceSignature)
        #expect(
            sessionErrorCode { _ = try harness.responder.check(stripped.bytes, memberGUID: SessionHarness.memberGUID) }
                == .badDeviceSignature)
    }

    @Test func aReplayedInitIsRefused() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        _ = try harness.answer(pending.initBytes)
        harness.clock.advance(milliseconds: 299_000)
        #expect(sessionErrorCode { _ = try harness.answer(pending.initBytes) } == .handshakeReplay)
    }

    @Test func theNonceIsRecordedOnlyByAcceptAndOnlyOnce() async throws {
        let harness = try SessionHarness()
        let pending = try await harness.initiator().start()
        // Two worker instances check the same init before either accepts it: only the first accept wins.
        let first = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.memberGUID)
        let second = try harness.responder.check(pending.initBytes, memberGUID: SessionHarness.memberGUID)
        _ = try harness.responder.accept(first, identity: harness.identity)
        #expect(
            sessionErrorCode { _ = try harness.responder.accept(second, identity: harness.identity) }
                == .handshakeReplay)
        // A refused init (bad signature) records nothing: the genuine init with the same nonce still goes through.
        let fresh = try await harness.initiator().start()
        var forged = fresh.initBytes
        forged[forged.count - 1] ^= 0x80
        #expect(sessionErrorCode { _ = try harness.answer(forged) } == .badDeviceSignature)
        #expect(throws: Never.self) { _ = try harness.answer(fresh.initBytes) }
    }

    @Test func aLowOrderX25519KeyFailsTheKeyAgreement() async throws {
        let harness = try SessionHarness()
        let device = P256.Signing.PrivateKey()
        let unsigned = try SessionInit(
            memberGUID: SessionHarness.memberGUID, devicePublicKey: device.publicKey, vaultKID: "k",
            timestampMilliseconds: SessionHarness.start, nonce: harness.random.bytes(32),
            offers: [SessionOffer(suite: .x25519, ephemeralPublicKey: [UInt8](repeating: 0, count: 32))])
        let signed = try unsigned.signed(ES256.sign(unsigned.signatureInput, with: device))
        #expect(sessionErrorCode { _ = try harness.answer(signed.bytes) } == .keyAgreementFailed)
    }

    @Test func layoutAndVersionComeFirst() async throws {
        let harness = try SessionHarness()
        #expect(sessionErrorCode { _ = try harness.answer([]) } == .malformedHandshake)
        #expect(sessionErrorCode { _ = try harness.answer([0x01, 0x02]) } == .unsupportedVersion)
        #expect(sessionErrorCode { _ = try harness.answer(Array("{}".utf8)) } == .malformedHandshake)
    }
}
