// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCore

@testable import VettIDClient

let sessionKeysJSON = """
    {"keys":[{"kid":"vault-session-1","kty":"EC","crv":"P-256","alg":"ES256",\
    "x":"axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY","y":"T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU"}],\
    "current_kid":"vault-session-1"}
    """

@Suite("Vault session keys (SDK)", .timeLimit(.minutes(1)))
struct VaultSessionKeysTests {
    @Test("a credential stored without keys fetches them once over the DPoP-bound API and stores them")
    func fetchesOnceForAnOldCredential() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        #expect(try await fixture.service.storedCredential()?.vaultSessionKeys == nil)
        await fixture.answers.add("/vault/session-keys", .ok, sessionKeysJSON)
        let keys = try await fixture.service.pinnedVaultKeys()
        #expect(keys.currentKID == "vault-session-1")
        #expect(keys.publicKeys.keys.sorted() == ["vault-session-1"])
        #expect(try await fixture.service.pinnedVaultKeys() == keys)
        let requests = await fixture.requests("/vault/session-keys")
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == .get)
        try fixture.expectSessionBound(request, token: "session-1", method: "GET", path: "/vault/session-keys")
        #expect(try await fixture.service.storedCredential()?.vaultSessionKeys == keys)
    }

    @Test("a key off the curve is invalid_response with the PinnedVaultKeyError underneath; nothing is stored")
    func refusesAnInvalidKey() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        let offCurve = sessionKeysJSON.replacingOccurrences(
            of: "T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU", with: "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE")
        await fixture.answers.add("/vault/session-keys", .ok, offCurve)
        let error = await captureError { _ = try await fixture.service.refreshPinnedVaultKeys() }
        #expect(error?.code == .invalidResponse)
        #expect((error?.underlying as? PinnedVaultKeyError)?.code == .invalidPoint)
        #expect(try await fixture.service.storedCredential()?.vaultSessionKeys == nil)
    }

    @Test("without a stored credential: not_enrolled, and no request")
    func notEnrolled() async throws {
        let fixture = try ScriptedVaultFixture()
        let error = await captureError { _ = try await fixture.service.pinnedVaultKeys() }
        #expect(error?.code == .notEnrolled)
        #expect(await fixture.requests("/vault/session-keys").isEmpty)
    }
}
