// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Testing
import VettIDCrypto
import VettIDSession

/// The init's strict layout: what parses, and the code of everything that does not.
@Suite struct SessionInitTests {
    static let device = P256.Signing.PrivateKey()

    static func sample(
        guid: String = SessionHarness.memberGUID, offers: [SessionOffer]? = nil
    ) throws -> SessionInit {
        let offers =
            try offers
            ?? SessionSuite.known.map { suite in
                SessionOffer(try SessionEphemeralKey.generate(suite: suite, random: ScriptedRandom()))
            }
        let unsigned = try SessionInit(
            memberGUID: guid, devicePublicKey: device.publicKey, vaultKID: "vault-2026-1",
            timestampMilliseconds: SessionHarness.start, nonce: countingBytes(from: 0, count: 32), offers: offers)
        return try unsigned.signed(ES256.sign(unsigned.signatureInput, with: device))
    }

    @Test func serializesAndParsesBack() throws {
        let sample = try Self.sample()
        let parsed = try SessionInit(parsing: sample.bytes)
        #expect(parsed == sample)
        #expect(parsed.memberGUID == SessionHarness.memberGUID)
        #expect(parsed.offers.map(\.suite) == [.xWing, .x25519])
        #expect(parsed.offers.map(\.ephemeralPublicKey.count) == [1216, 32])
        #expect(parsed.hasValidDeviceSignature)
        #expect(parsed.bytes.count == 2 + 37 + 65 + 13 + 8 + 32 + 1 + (4 + 1216) + (4 + 32) + 64)
    }

    @Test func everyTruncationIsMalformed() throws {
        let bytes = try Self.sample().bytes
        for length in 0..<bytes.count {
            #expect(
                sessionErrorCode { _ = try SessionInit(parsing: Array(bytes.prefix(length))) } == .malformedHandshake,
                "length \(length)")
        }
    }

    @Test func trailingBytesAreMalformed() throws {
        #expect(sessionErrorCode { _ = try SessionInit(parsing: Self.sample().bytes + [0]) } == .malformedHandshake)
    }

    @Test func theTypeAndVersionBytesAreChecked() throws {
        var bytes = try Self.sample().bytes
        bytes[0] = 0x02
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
        bytes[0] = 0x01
        bytes[1] = 0x02
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .unsupportedVersion)
    }

    @Test func offersMustBeWellFormed() throws {
        let x25519 = SessionOffer(suite: .x25519, ephemeralPublicKey: [UInt8](repeating: 9, count: 32))
        let cases: [[SessionOffer]] = [
            [],
            [x25519, x25519],
            [SessionOffer(suite: .x25519, ephemeralPublicKey: [UInt8](repeating: 9, count: 31))],
            [SessionOffer(suite: .xWing, ephemeralPublicKey: [UInt8](repeating: 9, count: 32))],
            [SessionOffer(suite: SessionSuite(rawValue: 0x0099), ephemeralPublicKey: [])],
            (0..<5).map { SessionOffer(suite: SessionSuite(rawValue: 0x0100 + UInt16($0)), ephemeralPublicKey: [1]) },
        ]
        for offers in cases {
            #expect(sessionErrorCode { _ = try Self.sample(offers: offers) } == .malformedHandshake, "\(offers.count)")
        }
        // An unknown suite with a key of any length is kept (a newer app may offer it); it is never chosen.
        let unknown = SessionOffer(suite: SessionSuite(rawValue: 0x0099), ephemeralPublicKey: [1, 2, 3])
        let parsed = try SessionInit(parsing: Self.sample(offers: [unknown, x25519]).bytes)
        #expect(parsed.offers == [unknown, x25519])
    }

    @Test func countsAndOffersAreCheckedOnTheWire() throws {
        let sample = try Self.sample(offers: [
            SessionOffer(suite: .x25519, ephemeralPublicKey: [UInt8](repeating: 9, count: 32))
        ])
        var bytes = sample.bytes
        let countOffset = 2 + 1 + sample.memberGUID.utf8.count + 65 + 1 + sample.vaultKID.utf8.count + 8 + 32
        #expect(bytes[countOffset] == 1)
        bytes[countOffset] = 0
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
        bytes[countOffset] = 5
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
    }

    @Test func theDeviceKeyMustBeAnUncompressedPoint() throws {
        let sample = try Self.sample()
        let keyOffset = 2 + 1 + sample.memberGUID.utf8.count
        var bytes = sample.bytes
        bytes[keyOffset] = 0x03
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
        bytes = sample.bytes
        bytes[keyOffset + 64] ^= 0x01
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
    }

    @Test func textFieldsMustBeUTF8OfOneTo255Bytes() throws {
        let sample = try Self.sample()
        var bytes = sample.bytes
        bytes[3] = 0xFF
        #expect(sessionErrorCode { _ = try SessionInit(parsing: bytes) } == .malformedHandshake)
        #expect(sessionErrorCode { _ = try Self.sample(guid: "") } == .malformedHandshake)
        #expect(
            sessionErrorCode { _ = try Self.sample(guid: String(repeating: "a", count: 256)) } == .malformedHandshake)
        #expect(throws: Never.self) { _ = try Self.sample(guid: String(repeating: "a", count: 255)) }
    }

    @Test func aSignatureMustBe64Bytes() throws {
        #expect(sessionErrorCode { _ = try Self.sample().signed([1, 2, 3]) } == .malformedHandshake)
    }
}
