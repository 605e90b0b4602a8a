// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@Suite struct NKeysTests {
    struct Pair {
        let seed: String
        let publicKey: String
        let seedBytesHex: String
        let ed25519SeedHex: String
        let publicKeyBytesHex: String
        let ed25519PublicKeyHex: String
    }

    static func pairs() throws -> [Pair] {
        let root = try TestFixtures.jsonObject("nkeys/vectors.json")
        let pairs = try #require(root["pairs"] as? [[String: Any]])
        return try pairs.map { pair in
            let decoded = try #require(pair["decoded"] as? [String: Any])
            return Pair(
                seed: try #require(pair["seed"] as? String),
                publicKey: try #require(pair["public_key"] as? String),
                seedBytesHex: try #require(decoded["seed_bytes_hex"] as? String),
                ed25519SeedHex: try #require(decoded["ed25519_seed_hex"] as? String),
                publicKeyBytesHex: try #require(decoded["public_key_bytes_hex"] as? String),
                ed25519PublicKeyHex: try #require(decoded["ed25519_public_key_hex"] as? String)
            )
        }
    }

    @Test func crc16CheckValueFromFixture() throws {
        let root = try TestFixtures.jsonObject("nkeys/vectors.json")
        let crc = try #require(root["crc16_xmodem"] as? [String: Any])
        let input = try #require(crc["input_ascii"] as? String)
        let check = try #require(crc["check"] as? Int)
        #expect(CRC16.xmodem(Array(input.utf8)) == UInt16(check))
        #expect(CRC16.xmodem(Array("123456789".utf8)) == 0x31C3)
        #expect(CRC16.xmodem([UInt8]()) == 0)
    }

    @Test func fixturePairsDecodeDeriveAndReencode() throws {
        let pairs = try Self.pairs()
        #expect(pairs.count == 2)
        for pair in pairs {
            #expect(Hex.encode(try #require(Base32.decode(pair.seed))) == pair.seedBytesHex)
            #expect(Hex.encode(try #require(Base32.decode(pair.publicKey))) == pair.publicKeyBytesHex)
            let keyPair = try NKeyPair(seed: pair.seed)
            #expect(keyPair.type == .user)
            #expect(keyPair.publicKey == pair.publicKey)
            #expect(Hex.encode(keyPair.publicKeyBytes) == pair.ed25519PublicKeyHex)
            #expect(try keyPair.encodedSeed() == pair.seed)
            let publicOnly = try NKeyPair(publicKey: pair.publicKey, expectedType: .user)
            #expect(publicOnly.publicKey == pair.publicKey)
            #expect(Hex.encode(publicOnly.publicKeyBytes) == pair.ed25519PublicKeyHex)
            // The Ed25519 seed in the fixture derives the same key through swift-crypto directly.
            let seedBytes = try #require(Base32.decode(pair.seed))
            #expect(Hex.encode(Array(seedBytes[2..<34])) == pair.ed25519SeedHex)
            // The raw Ed25519 seed gives the same pair and the same encoded seed.
            let fromRaw = try NKeyPair(type: .user, rawSeed: Array(seedBytes[2..<34]))
            #expect(fromRaw.publicKey == pair.publicKey)
            #expect(try fromRaw.encodedSeed() == pair.seed)
        }
        #expect(throws: NKeyError.self) { try NKeyPair(type: .account, rawSeed: [1, 2, 3]) }
    }

    @Test func oneChangedCharacterFailsTheChecksum() throws {
        for pair in try Self.pairs() {
            for position in [1, 10, 30, pair.publicKey.count - 1] {
                var characters = Array(pair.publicKey)
                characters[position] = characters[position] == "A" ? "B" : "A"
                let altered = String(characters)
                #expect(throws: NKeyError.self) { try NKeyPair(publicKey: altered) }
                #expect(!NKeyPair.isValidPublicKey(altered))
            }
            var seedCharacters = Array(pair.seed)
            seedCharacters[20] = seedCharacters[20] == "Q" ? "R" : "Q"
            do {
                _ = try NKeyPair(seed: String(seedCharacters))
                Issue.record("an altered seed decoded")
            } catch {
                #expect(error.code == .invalidChecksum)
            }
        }
    }

    @Test func rejectsWrongKindsAndGarbage() throws {
        let pair = try #require(try Self.pairs().first)
        #expect(throws: NKeyError.self) { try NKeyPair(seed: pair.publicKey) }
        #expect(throws: NKeyError.self) { try NKeyPair(publicKey: pair.seed) }
        #expect(throws: NKeyError.self) { try NKeyPair(publicKey: pair.publicKey, expectedType: .account) }
        #expect(throws: NKeyError.self) { try NKeyPair(publicKey: "not base32!") }
        #expect(throws: NKeyError.self) { try NKeyPair(publicKey: "") }
        let publicOnly = try NKeyPair(publicKey: pair.publicKey)
        #expect(!publicOnly.canSign)
        #expect(throws: NKeyError.self) { try publicOnly.sign([1, 2, 3]) }
        #expect(throws: NKeyError.self) { try publicOnly.encodedSeed() }
    }

    @Test(arguments: [NKeyType.operator, .account, .user, .server, .cluster])
    func generatedKeysHaveTheirPrefixAndRoundTrip(type: NKeyType) throws {
        let letters: [String: String] = ["operator": "O", "account": "A", "user": "U", "server": "N", "cluster": "C"]
        let keyPair = NKeyPair.generate(type)
        #expect(keyPair.publicKey.count == 56)
        #expect(keyPair.publicKey.hasPrefix(try #require(letters[type.name])))
        let seed = try keyPair.encodedSeed()
        #expect(seed.count == 58)
        #expect(seed.hasPrefix("S" + (try #require(letters[type.name]))))
        let restored = try NKeyPair(seed: seed)
        #expect(restored.type == type)
        #expect(restored.publicKey == keyPair.publicKey)
        #expect(NKeyPair.generate(type).publicKey != keyPair.publicKey)
    }

    @Test func signAndVerify() throws {
        let pair = try #require(try Self.pairs().first)
        let keyPair = try NKeyPair(seed: pair.seed)
        let nonce = Array("Zq0mTZ6W3bkyJEg".utf8)
        let signature = try keyPair.sign(nonce)
        #expect(signature.count == 64)
        let verifier = try NKeyPair(publicKey: pair.publicKey)
        #expect(verifier.verify(nonce, signature: signature))
        #expect(!verifier.verify(Array("Zq0mTZ6W3bkyJEh".utf8), signature: signature))
        var tampered = signature
        tampered[5] ^= 1
        #expect(!verifier.verify(nonce, signature: tampered))
        // Interoperates with plain swift-crypto Ed25519.
        let cryptoKey = try Curve25519.Signing.PublicKey(rawRepresentation: verifier.publicKeyBytes)
        #expect(cryptoKey.isValidSignature(signature, for: nonce))
    }

    @Test func descriptionNeverShowsTheSeed() throws {
        let pair = try #require(try Self.pairs().first)
        let keyPair = try NKeyPair(seed: pair.seed)
        #expect(!"\(keyPair)".contains(pair.seed))
        #expect("\(keyPair)".contains(pair.publicKey))
    }

    @Test(arguments: [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ])
    func base32Rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base32.encode(Array(plain.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: ["MY======", "my", "M", "MZX", "MZXW6Y", "MZ", "MZXW7", "1ABC"])
    func base32RefusesInvalidInput(text: String) {
        #expect(Base32.decode(text) == nil)
    }

    @Test func base32RoundTripsEveryLength() {
        for length in 0..<80 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
    }
}
