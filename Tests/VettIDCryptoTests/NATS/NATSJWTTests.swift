// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@Suite struct NATSJWTTests {
    static func fixture() throws -> [String: Any] { try TestFixtures.jsonObject("nats/TestUser.json") }

    @Test func sha512_256KnownAnswers() {
        // FIPS 180-4 examples (NIST CSRC SHA512_256.pdf) and the empty string.
        #expect(
            Hex.encode(SHA512_256.hash(Array("abc".utf8)))
                == "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"
        )
        #expect(
            Hex.encode(SHA512_256.hash([UInt8]()))
                == "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"
        )
        let twoBlock =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            Hex.encode(SHA512_256.hash(Array(twoBlock.utf8)))
                == "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"
        )
    }

    @Test func jtiRecomputationMatchesFixture() throws {
        let jti = try #require(try Self.fixture()["jti"] as? [String: Any])
        let input = try #require(jti["input_json"] as? String)
        let digest = SHA512_256.hash(Array(input.utf8))
        #expect(Hex.encode(digest) == jti["sha512_256_hex"] as? String)
        #expect(Base32.encode(digest) == jti["expected"] as? String)

        let token = try #require(try Self.fixture()["jwt"] as? String)
        let claims = try NATSJWT.decode(token, as: NATSUserClaims.self)
        #expect(try NATSJWT.claimsID(claims) == jti["expected"] as? String)
        #expect(claims.id == jti["expected"] as? String)
    }

    @Test func decodesAndVerifiesTheFixtureUserJWT() throws {
        let root = try Self.fixture()
        let token = try #require(root["jwt"] as? String)
        let expected = try #require(root["claims"] as? [String: Any])
        let claims = try NATSJWT.decode(token, as: NATSUserClaims.self)
        #expect(claims.id == expected["jti"] as? String)
        #expect(claims.issuedAt == Int64(try #require(expected["iat"] as? Int)))
        #expect(claims.issuer == expected["iss"] as? String)
        #expect(claims.name == expected["name"] as? String)
        #expect(claims.subject == expected["sub"] as? String)
        #expect(claims.expires == nil)
        #expect(!claims.isExpired(at: 4_000_000_000))
        #expect(claims.nats.maxSubscriptions == -1)
        #expect(claims.nats.maxData == -1)
        #expect(claims.nats.maxPayload == -1)
        #expect(claims.nats.version == 2)
        #expect(claims.nats.permissions == NATSClaimPermissions())
        #expect(token.hasPrefix(NATSJWT.encodedHeader + "."))
        #expect(NATSJWT.encodedHeader == root["header_b64url"] as? String)

        let seed = try #require(root["seed"] as? String)
        #expect(try NKeyPair(seed: seed).publicKey == claims.subject)
        #expect(root["seed_public_key"] as? String == claims.subject)
    }

    @Test func tamperedTokensAreRejected() throws {
        let token = try #require(try Self.fixture()["jwt"] as? String)
        let parts = token.split(separator: ".").map(String.init)
        // Change the payload: claims differ, signature no longer verifies.
        var payload = try #require(Base64URL.decode(parts[1]))
        let index = try #require(payload.firstIndex(of: UInt8(ascii: "T")))
        payload[index] = UInt8(ascii: "X")
        let forged = parts[0] + "." + Base64URL.encode(payload) + "." + parts[2]
        #expect(throws: NATSJWTError.self) { try NATSJWT.decode(forged, as: NATSUserClaims.self) }
        do {
            _ = try NATSJWT.decode(forged, as: NATSUserClaims.self)
        } catch {
            #expect(error.code == .invalidSignature)
        }
        do {
            _ = try NATSJWT.decode(token, as: NATSAccountClaims.self)
            Issue.record("user claims decoded as account claims")
        } catch {
            #expect(error.code == .wrongClaimType)
        }
        do {
            _ = try NATSJWT.decode(parts[0] + "." + parts[1], as: NATSUserClaims.self)
            Issue.record("a two-segment token decoded")
        } catch {
            #expect(error.code == .malformed)
        }
        let v1Header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ed25519"}"#.utf8))
        do {
            _ = try NATSJWT.decode(v1Header + "." + parts[1] + "." + parts[2], as: NATSUserClaims.self)
            Issue.record("a v1 header decoded")
        } catch {
            #expect(error.code == .unsupportedHeader)
        }
    }

    @Test func operatorAccountUserChainRoundTrips() throws {
        let now: Int64 = 1_763_000_000
        let operatorKey = NKeyPair.generate(.operator)
        let systemAccount = NKeyPair.generate(.account)
        let account = NKeyPair.generate(.account)
        let user = NKeyPair.generate(.user)

        let operatorJWT = try NATSJWT.encode(
            NATSOperatorJWTClaims(
                subject: operatorKey.publicKey,
                name: "VettID",
                nats: NATSOperatorClaims(systemAccount: systemAccount.publicKey)
            ),
            signedBy: operatorKey,
            now: now
        )
        let decodedOperator = try NATSJWT.decode(operatorJWT, as: NATSOperatorClaims.self)
        #expect(decodedOperator.issuer == operatorKey.publicKey)
        #expect(decodedOperator.subject == operatorKey.publicKey)
        #expect(decodedOperator.nats.systemAccount == systemAccount.publicKey)
        #expect(decodedOperator.issuedAt == now)
        #expect(decodedOperator.id == (try NATSJWT.claimsID(decodedOperator)))

        var accountClaims = NATSAccountClaims(revocations: [user.publicKey: now - 10])
        accountClaims.defaultPermissions = NATSClaimPermissions(publish: NATSPermission(deny: [">"]))
        let accountJWT = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: account.publicKey, name: "APP", nats: accountClaims),
            signedBy: operatorKey,
            now: now
        )
        let decodedAccount = try NATSJWT.decode(accountJWT, as: NATSAccountClaims.self)
        #expect(decodedAccount.nats == accountClaims)
        #expect(decodedAccount.nats.limits.connections == -1)
        #expect(decodedAccount.nats.limits.payload == -1)
        #expect(decodedAccount.nats.isRevoked(userKey: user.publicKey, issuedAt: now - 10))
        #expect(!decodedAccount.nats.isRevoked(userKey: user.publicKey, issuedAt: now - 9))
        let payloadJSON = String(
            decoding: try #require(Base64URL.decode(accountJWT.split(separator: ".")[1])), as: UTF8.self)
        #expect(payloadJSON.contains(#""conn":-1"#))
        #expect(payloadJSON.contains(#""subs":-1"#))

        let userClaims = NATSUserClaims(
            permissions: NATSClaimPermissions(
                publish: NATSPermission(allow: ["OwnerSpace.abc.forVault.>"]),
                subscribe: NATSPermission(allow: ["OwnerSpace.abc.forApp.>", "_INBOX.>"]),
                response: NATSResponsePermission(maxMessages: 1, expiresNanoseconds: 60_000_000_000)
            )
        )
        let userJWT = try NATSJWT.encode(
            NATSUserJWTClaims(subject: user.publicKey, name: "device", expires: now + 86_400, nats: userClaims),
            signedBy: account,
            now: now
        )
        let decodedUser = try NATSJWT.decode(userJWT, as: NATSUserClaims.self)
        #expect(decodedUser.nats == userClaims)
        #expect(decodedUser.expires == now + 86_400)
        #expect(decodedUser.isValid(at: now))
        #expect(decodedUser.isExpired(at: now + 86_400))
        let userPayload = String(
            decoding: try #require(Base64URL.decode(userJWT.split(separator: ".")[1])), as: UTF8.self)
        #expect(userPayload.contains(#""subs":-1"#))
        #expect(userPayload.contains(#""data":-1"#))
        #expect(userPayload.contains(#""payload":-1"#))
        #expect(userPayload.contains(#""type":"user""#))
        #expect(userPayload.contains(#""version":2"#))
    }

    @Test func issuerRulesAreEnforced() throws {
        let user = NKeyPair.generate(.user)
        let wrongIssuer = NKeyPair.generate(.user)
        do {
            _ = try NATSJWT.encode(
                NATSUserJWTClaims(subject: user.publicKey, nats: NATSUserClaims()),
                signedBy: wrongIssuer,
                now: 1
            )
            Issue.record("a user key issued a user JWT")
        } catch {
            #expect(error.code == .invalidIssuer)
        }
        do {
            _ = try NATSJWT.encode(
                NATSUserJWTClaims(subject: NKeyPair.generate(.account).publicKey, nats: NATSUserClaims()),
                signedBy: NKeyPair.generate(.account),
                now: 1
            )
            Issue.record("a user JWT with an account subject was issued")
        } catch {
            #expect(error.code == .invalidClaims)
        }
    }

    /// JetStream limits go into `nats.limits` beside the core ones, only when not 0 (as nats-io/jwt writes them), and
    /// an account has JetStream exactly when one of the storages is not 0.
    @Test func jetStreamLimitsAreWrittenOnlyWhenSetAndDecodeBack() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let off = NATSAccountLimits()
        #expect(!off.hasJetStream)
        let offJSON = String(decoding: try encoder.encode(off), as: UTF8.self)
        for key in ["mem_storage", "disk_storage", "streams", "consumer", "max_ack_pending", "max_bytes_required"] {
            #expect(!offJSON.contains("\"\(key)\""))
        }
        var on = NATSAccountLimits()
        on.jetStreamDiskStorage = 1 << 30
        on.jetStreamStreams = 1
        on.jetStreamConsumers = -1
        on.jetStreamMaxAckPending = -1
        #expect(on.hasJetStream)
        let onJSON = String(decoding: try encoder.encode(on), as: UTF8.self)
        #expect(onJSON.contains(#""disk_storage":1073741824"#))
        #expect(onJSON.contains(#""streams":1"#))
        #expect(onJSON.contains(#""consumer":-1"#))
        #expect(!onJSON.contains("mem_storage"))
        #expect(try JSONDecoder().decode(NATSAccountLimits.self, from: Data(onJSON.utf8)) == on)
        let memoryOnly = try JSONDecoder().decode(NATSAccountLimits.self, from: Data(#"{"mem_storage":-1}"#.utf8))
        #expect(memoryOnly.hasJetStream)
        #expect(memoryOnly.jetStreamDiskStorage == 0)
    }
}
