// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@Suite struct P256PublicJWKTests {
    struct Fixture: Decodable {
        let public_jwk: [String: String]
        let jwk_thumbprint_input: String
        let jwk_thumbprint: String
    }

    @Test func rfc9449KeyThumbprintMatchesFixture() throws {
        let fixture = try TestFixtures.decode(Fixture.self, from: "dpop/rfc9449-examples.json")
        let jwk = try P256PublicJWK(x: try #require(fixture.public_jwk["x"]), y: try #require(fixture.public_jwk["y"]))
        #expect(String(decoding: jwk.thumbprintInput, as: UTF8.self) == fixture.jwk_thumbprint_input)
        #expect(jwk.thumbprint == fixture.jwk_thumbprint)
        #expect(jwk.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test func codableRoundTripAndStrictDecoding() throws {
        let jwk = P256PublicJWK(publicKey: P256.Signing.PrivateKey().publicKey)
        let encoded = try JSONEncoder().encode(jwk)
        #expect(try JSONDecoder().decode(P256PublicJWK.self, from: encoded) == jwk)

        let withPrivate = #"{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)","d":"AAAA"}"#
        #expect {
            try JSONDecoder().decode(P256PublicJWK.self, from: Data(withPrivate.utf8))
        } throws: { ($0 as? JOSEError)?.code == .privateKeyMember }

        let otherCurve = #"{"kty":"EC","crv":"P-384","x":"\#(jwk.x)","y":"\#(jwk.y)"}"#
        #expect {
            try JSONDecoder().decode(P256PublicJWK.self, from: Data(otherCurve.utf8))
        } throws: { ($0 as? JOSEError)?.code == .unsupportedCurve }
    }

    @Test func refusesBadMembers() throws {
        let jwk = P256PublicJWK(publicKey: P256.Signing.PrivateKey().publicKey)
        func code(_ members: [(String, JSONValue)]) -> JOSEError.Code? {
            do throws(JOSEError) {
                _ = try P256PublicJWK(json: .object(members))
                return nil
            } catch {
                return error.code
            }
        }
        let base: [(String, JSONValue)] = [
            ("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(jwk.x)), ("y", .string(jwk.y)),
        ]
        #expect(code(base) == nil)
        for name in ["d", "p", "q", "dp", "dq", "qi", "k"] {
            #expect(code(base + [(name, .string("AAAA"))]) == .privateKeyMember)
        }
        #expect(code([("kty", .string("RSA"))] + base.dropFirst()) == .unsupportedKeyType)
        // y of another point: not on the curve together with x.
        let other = P256PublicJWK(publicKey: P256.Signing.PrivateKey().publicKey)
        #expect(code(Array(base.prefix(3)) + [("y", .string(other.y))]) == .invalidPoint)
        #expect(code(Array(base.prefix(2)) + [("x", .string("AAAA")), ("y", .string(jwk.y))]) == .invalidPoint)
        #expect(code(Array(base.prefix(3))) == .malformed)
    }

    @Test func es256SignsRawSignaturesThatVerify() throws {
        let key = P256.Signing.PrivateKey()
        let message = Array("header.payload".utf8)
        let signature = try ES256.sign(message, with: key)
        #expect(signature.count == 64)
        #expect(ES256.isValid(signature: signature, for: message, publicKey: key.publicKey))
        #expect(!ES256.isValid(signature: signature, for: Array("header.payloaX".utf8), publicKey: key.publicKey))
        let der = Array(try key.signature(for: message).derRepresentation)
        #expect(!ES256.isValid(signature: der, for: message, publicKey: key.publicKey))
    }
}
