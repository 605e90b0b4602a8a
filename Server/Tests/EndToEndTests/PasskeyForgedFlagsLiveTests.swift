// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOHTTP1
import Testing
import VettIDAPI
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDServer
import VettIDTestSupport
import VettIDVerification

/// The flag, key and signature checks of §7.1 and §7.2 once more, over HTTP against a live server that requires user
/// verification: each forged response is refused, and the genuine one after them still works.
@Suite struct PasskeyForgedFlagsLiveTests {
    @Test
    @MainActor
    func forgedFlagsKeysAndSignaturesAreRefusedOverHTTP() async throws {
        try await LiveServer.withServer(configure: { $0.passkeys.userVerification = .required }) { server in
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let rpID = "localhost"
            let auth = try PasskeyLiveTests.manager(server)
            try await auth.register(email: "flags@example.com", password: PasskeyLiveTests.password)
            let key = try TestPasskey()

            // Registrations: each forged in one place, each 400 passkey_rejected.
            func register(
                flags: WebAuthnAuthenticatorData.Flags = [.userPresent, .userVerified],
                rpID registeredRPID: String? = nil,
                coseKey: [UInt8]? = nil
            ) async throws -> APIErrorCode? {
                let options = try await PasskeyLiveTests.startRegistration(auth)
                let response = try key.registration(
                    challenge: try #require(Base64URL.decode(options.challenge)), rpID: registeredRPID ?? rpID,
                    origin: origin, flags: flags, coseKey: coseKey)
                do {
                    _ = try await PasskeyLiveTests.finishRegistration(auth, response)
                    return nil
                } catch let error as APIError {
                    return error.code
                }
            }
            #expect(try await register(rpID: "evil.example") == .passkeyRejected, "another RP id hash")
            #expect(try await register(flags: [.userVerified]) == .passkeyRejected, "UP missing")
            #expect(try await register(flags: [.userPresent]) == .passkeyRejected, "UV missing when required")
            #expect(
                try await register(flags: [.userPresent, .userVerified, .backupState]) == .passkeyRejected,
                "BS without BE")
            #expect(try await register(coseKey: [0xA1, 0x01, 0x02]) == .passkeyRejected, "a malformed COSE key")
            #expect(try await register() == nil, "the genuine registration")
            let handle = try #require(
                Base64URL.decode(try await PasskeyLiveTests.startRegistration(auth).user.id))

            // Sign-ins: each forged in one place, each 401 passkey_rejected.
            var count: UInt32 = 0
            func signIn(
                flags: WebAuthnAuthenticatorData.Flags = [.userPresent, .userVerified], signedData: [UInt8]? = nil
            ) async throws -> APIErrorCode? {
                count += 1
                let challenge = try await PasskeyLiveTests.signInChallenge(auth)
                return await PasskeyLiveTests.signIn(
                    auth,
                    try key.assertion(
                        challenge: challenge, rpID: rpID, origin: origin, flags: flags, signCount: count,
                        userHandle: handle, signedData: signedData))
            }
            #expect(try await signIn(flags: [.userVerified]) == .passkeyRejected, "UP missing")
            #expect(try await signIn(flags: [.userPresent]) == .passkeyRejected, "UV missing when required")
            #expect(
                try await signIn(flags: [.userPresent, .userVerified, .backupState]) == .passkeyRejected,
                "BS without BE")
            #expect(
                try await signIn(flags: [.userPresent, .userVerified, .backupEligible]) == .passkeyRejected,
                "BE changed since registration")
            #expect(try await signIn(signedData: [1, 2, 3]) == .passkeyRejected, "a signature over other data")
            #expect(try await signIn() == nil, "the genuine sign-in")
        }
    }
}

/// `/.well-known/apple-app-site-association`: the configured apps under `webcredentials`, 404 without.
@Suite struct AppleAppSiteAssociationLiveTests {
    @Test
    func listsTheConfiguredAppsAndIsAbsentWithoutThem() async throws {
        try await LiveServer.withServer(configure: {
            $0.passkeys.appIDs = ["ABCDE12345.dev.vettid.example", "ABCDE12345.dev.vettid.other"]
        }) { server in
            let page = try await PortalBrowser(baseURL: server.baseURL).get("/.well-known/apple-app-site-association")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "content-type")?.hasPrefix("application/json") == true)
            let body = try #require(
                try JSONSerialization.jsonObject(with: Data(page.html.utf8)) as? [String: [String: [String]]])
            #expect(
                body["webcredentials"]?["apps"] == ["ABCDE12345.dev.vettid.example", "ABCDE12345.dev.vettid.other"])
        }
        try await LiveServer.withServer { server in
            let page = try await PortalBrowser(baseURL: server.baseURL).get("/.well-known/apple-app-site-association")
            #expect(page.status == 404)
        }
    }
}
