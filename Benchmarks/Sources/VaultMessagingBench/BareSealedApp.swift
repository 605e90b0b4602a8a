// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import NATSClient
import NIOCore
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDSession

/// An app that seals its requests itself, one at a time: VettIDSession's `SessionInitiator` and
/// `SealedSessionClient` over the benchmark's own `NATSClient`, the same calls `VaultSessionChannel` makes without
/// the SDK's actor and connection manager around them. A new handshake runs when the session's requests are used
/// up (1,000), inside the request that needs it, as in the SDK.
final class BareSealedApp {
    let client: NATSClient
    let namespace: VaultNamespace
    private let signer: any DPoPSigner
    private let pinned: PinnedVaultKeys
    private var session: SealedSessionClient?
    /// The handshakes run so far.
    private(set) var handshakes = 0

    /// An app of `device` on a connection with the exact app permissions of its member; no handshake yet.
    init(_ device: EnrolledDevice, connections: BenchConnections) async throws {
        client = try await connections.app(in: device.namespace)
        namespace = device.namespace
        signer = try await device.keyStore.deviceKey().signer
        pinned = try await device.vault.pinnedVaultKeys()
    }

    /// Runs a handshake over NATS (signed init to `forVault.session`, the vault's response checked against the
    /// pinned keys) and keeps its session.
    func handshake() async throws {
        let initiator = SessionInitiator(
            memberGUID: namespace.userGUID, deviceSigner: signer, expectedVaultKID: pinned.currentKID)
        let pending = try await initiator.start()
        let reply = try await client.request(ByteBuffer(bytes: pending.initBytes), to: namespace.sessionInit)
        session = try pending.complete(
            response: Array(reply.payload.readableBytesView), pinnedVaultKeys: pinned.publicKeys)
        handshakes += 1
    }

    /// `echo` of `payload`, sealed (a handshake first when the session is used up); the answer must be `payload`.
    func echo(_ payload: JSONValue) async throws {
        if session?.isUsable(margin: .seconds(60)) != true { try await handshake() }
        guard let session else { throw BenchFailure("no sealed session after a handshake") }
        let request = try session.sealRequest(handler: VaultHandlerID.echo.rawValue, body: payload)
        let reply = try await client.request(
            ByteBuffer(bytes: request.envelope), to: namespace.sealed(route: session.sessionID.route.subjectToken))
        let response = try session.openResponse(Array(reply.payload.readableBytesView), to: request)
        guard case .success(_, let result) = response, result == payload else {
            throw BenchFailure("a sealed echo answered \(response)")
        }
    }

    func close() async {
        await client.close()
    }
}
