// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDAttestation
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient

@testable import VettIDClient

/// A vault service wired to a ``FakeVaultServer`` (unit tests only).
struct VaultFixture {
    enum Attestation {
        case development
        case software
    }

    let server: FakeVaultServer
    let transport: FakeTransport
    let store: InMemorySecureStore
    let keyStore: SoftwareDeviceKeyStore
    let service: VaultService

    static let password = "trombone-quietly-vanilla-37"

    static func make(_ attestation: Attestation = .development, attestationRequired: Bool = true) async throws
        -> VaultFixture
    {
        let server = try FakeVaultServer()
        await server.set(attestationRequired: attestationRequired)
        let transport = server.transport()
        let store = InMemorySecureStore()
        let keyStore = SoftwareDeviceKeyStore(store: store)
        let attester: any DeviceAttester =
            switch attestation {
            case .development: DevelopmentTokenAttester(token: "dev-token")
            case .software:
                SoftwareDeviceAttester(
                    attester: SoftwareAttester(authority: server.authority, appID: FakeVaultServer.appID), store: store)
            }
        let service = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: URL(string: FakeVaultServer.baseURL)!, deviceType: .linux, transport: transport),
            deviceKeyStore: keyStore,
            attester: attester,
            store: store
        )
        return VaultFixture(server: server, transport: transport, store: store, keyStore: keyStore, service: service)
    }

    var invitation: EnrollmentInvitationLink {
        get throws {
            try EnrollmentInvitationLink(
                code: FakeVaultServer.invitationCode, apiOrigin: URL(string: FakeVaultServer.baseURL)!)
        }
    }

    /// Enrolls with ``password``.
    @discardableResult
    func enroll() async throws -> VaultCredential {
        try await service.enroll(invitation: invitation, password: Self.password)
    }

    func requests(_ path: String) async -> [RecordedRequest] {
        await transport.log.requests.filter { $0.path == path }
    }

    func json(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    }
}
