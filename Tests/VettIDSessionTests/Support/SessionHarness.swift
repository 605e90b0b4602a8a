// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCore
import VettIDCrypto
import VettIDSession

/// An app and a vault wired together in memory: a device key, a vault identity, a responder, a session table, one
/// clock for both sides.
struct SessionHarness {
    static let memberGUID = "3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b"
    static let otherMemberGUID = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
    static let vaultKID = "vault-2026-1"
    static let start: UInt64 = 1_767_225_600_000

    let clock = TestClock(milliseconds: start)
    let device = SoftwareDPoPSigner()
    let vaultKey = P256.Signing.PrivateKey()
    let identity: VaultIdentityKey
    let nonces = InMemoryHandshakeNonceCache()
    let responder: SessionResponder
    let table: SealedSessionTable
    let random = ScriptedRandom()

    init(
        vaultSuites: [SessionSuite] = SessionSuite.available, maxMessages: UInt32 = 1000,
        lifetime: Duration = .seconds(86_400), reorderWait: Duration = .milliseconds(50),
        padding: SessionPadding = .init(), table: SealedSessionTable.Configuration? = nil,
        route: SessionRoute = SessionRoute(bytes: [0, 0, 0, 1])!
    ) throws {
        identity = try VaultIdentityKey(kid: Self.vaultKID, privateKey: vaultKey)
        responder = SessionResponder(
            configuration: .init(
                suites: vaultSuites, lifetime: lifetime, maxMessages: maxMessages, padding: padding, route: route),
            nonces: nonces, clock: clock, random: random)
        self.table = SealedSessionTable(
            configuration: table ?? .init(reorderWait: reorderWait), clock: clock)
    }

    /// `response` signed by the vault key over the transcript with `initBytes`: what a vault that misbehaves sends.
    func resign(_ response: SessionResponse, initBytes: [UInt8]) throws -> [UInt8] {
        let th = SessionKeySchedule.transcriptHash(initBytes: initBytes, responseSignedBytes: response.signedBytes)
        let input = SessionKeySchedule.responseSignatureInput(transcriptHash: th)
        return try response.signed(ES256.sign(input, with: vaultKey)).bytes
    }

    /// The vault keys the app pins.
    var pinned: [String: P256.Signing.PublicKey] { [identity.kid: identity.publicKey] }

    func initiator(
        suites: [SessionSuite] = SessionSuite.available, memberGUID: String = memberGUID,
        device: (any DPoPSigner)? = nil, padding: SessionPadding = .init()
    ) -> SessionInitiator {
        SessionInitiator(
            memberGUID: memberGUID, deviceSigner: device ?? self.device, expectedVaultKID: identity.kid,
            suites: suites, padding: padding, clock: clock, random: random)
    }

    /// The vault's whole handshake path (check, then accept with the identity), as the worker runs it.
    func answer(_ initBytes: [UInt8], memberGUID: String = memberGUID) throws -> SessionAcceptance {
        let checked = try responder.check(initBytes, memberGUID: memberGUID)
        return try responder.accept(checked, identity: identity)
    }

    /// A full handshake; the vault's session is inserted in the table.
    func establish(
        suites: [SessionSuite] = SessionSuite.available, device: (any DPoPSigner)? = nil
    ) async throws -> (client: SealedSessionClient, session: SealedSession) {
        let pending = try await initiator(suites: suites, device: device).start()
        let accepted = try answer(pending.initBytes)
        table.insert(accepted.session)
        return (try pending.complete(response: accepted.responseBytes, pinnedVaultKeys: pinned), accepted.session)
    }
}

/// The code of the `SessionError` `body` throws, or nil when it throws none (or another error).
func sessionErrorCode(_ body: () throws -> Void) -> SessionError.Code? {
    do {
        try body()
        return nil
    } catch let error as SessionError {
        return error.code
    } catch {
        return nil
    }
}

extension SealedRequestOutcome {
    /// The admitted request, if any.
    var admitted: AdmittedSessionRequest? {
        if case .admitted(let request) = self { request } else { nil }
    }

    /// The refusal's code, if refused.
    var refusalCode: SessionError.Code? {
        if case .refused(let error, _, _) = self { error.code } else { nil }
    }

    /// Whether the refusal's reply is sealed (nil when admitted).
    var isSealedRefusal: Bool? {
        if case .refused(_, _, let sealed) = self { sealed } else { nil }
    }

    /// The refusal's reply bytes (nil when admitted).
    var reply: [UInt8]? {
        if case .refused(_, let reply, _) = self { reply } else { nil }
    }
}
