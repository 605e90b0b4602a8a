// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The vault's end of the sealed sessions, shared by every vault worker of one server process.

public import Logging
public import VettIDCore
import VettIDCrypto
public import VettIDMessaging
public import VettIDSession

/// Answers sealed-session inits and envelopes (docs/protocol.md §7.3) for every worker connection of one server
/// process: one `SessionResponder` (with its nonce cache and this process's `SessionRoute`) and one
/// `SealedSessionTable`, so any worker connection of the process answers any of its sessions.
///
/// Build one per process and give it to each ``VaultWorker``; never a global. Its answers are bytes to publish on
/// the request's reply subject: a handshake response, a sealed answer, or a plaintext `SessionRefusal`.
public struct VaultSessionService: Sendable {
    /// Whether `deviceThumbprint` (RFC 7638) is an enrolled device of the member `memberGUID` whose credential is not
    /// revoked.
    public typealias DeviceLookup =
        @Sendable (_ memberGUID: String, _ deviceThumbprint: String) async throws -> Bool
    /// The vault identity key that signs handshake responses now (the current generation's).
    public typealias IdentityKey = @Sendable () throws -> VaultIdentityKey

    /// The handshake's checks and parameters, with this process's route.
    public let responder: SessionResponder
    /// The sessions this process holds.
    public let table: SealedSessionTable
    private let devices: DeviceLookup
    private let identity: IdentityKey
    private let metrics: ServerMetrics?

    /// - Parameters:
    ///   - responder: Checks and accepts inits; its configuration's route names this process.
    ///   - table: The sessions of this process.
    ///   - devices: The device check of an init (`unknown_device`).
    ///   - identity: The key that signs responses.
    ///   - metrics: Where handshakes and sealed requests are counted by outcome.
    public init(
        responder: SessionResponder, table: SealedSessionTable, devices: @escaping DeviceLookup,
        identity: @escaping IdentityKey, metrics: ServerMetrics? = nil
    ) {
        self.responder = responder
        self.table = table
        self.devices = devices
        self.identity = identity
        self.metrics = metrics
    }

    /// This process's route: the first bytes of its session ids and the last token of their envelopes' subject.
    public var route: SessionRoute { responder.configuration.route }

    /// Answers an init received on `OwnerSpace.{memberGUID}.forVault.session`: the response bytes, or a plaintext
    /// refusal (the responder's checks, then `unknown_device`, then the acceptance's).
    /// - Returns: The bytes to publish and the refusal, if it was one.
    public func handshake(
        _ initBytes: [UInt8], memberGUID: String, logger: Logger
    ) async -> (reply: [UInt8], refusal: SessionError?) {
        do throws(SessionError) {
            let checked = try responder.check(initBytes, memberGUID: memberGUID)
            guard try await isEnrolled(checked, logger: logger) else {
                throw SessionError(.unknownDevice, "the device is not an enrolled device of this member")
            }
            let accepted = try responder.accept(checked, identity: try currentIdentity())
            table.insert(accepted.session)
            metrics?.sessionHandshake(outcome: "ok")
            return (accepted.responseBytes, nil)
        } catch {
            metrics?.sessionHandshake(outcome: error.code.rawValue)
            logger.notice(
                "refused a sealed-session init", metadata: ["member": "\(memberGUID)", "code": "\(error.code)"])
            return (SessionRefusal(error).bytes, error)
        }
    }

    /// The device check of a checked init; a failing lookup is `handshake_failed`.
    private func isEnrolled(_ checked: CheckedSessionInit, logger: Logger) async throws(SessionError) -> Bool {
        do {
            return try await devices(checked.memberGUID, checked.deviceThumbprint)
        } catch {
            logger.error(
                "the device lookup of a session init failed",
                metadata: ["member": "\(checked.memberGUID)", "error": "\(type(of: error))"])
            throw SessionError(.handshakeFailed, "the vault cannot check the device now")
        }
    }

    /// The key that signs responses now; an unavailable one is `handshake_failed`.
    private func currentIdentity() throws(SessionError) -> VaultIdentityKey {
        do {
            return try identity()
        } catch {
            throw SessionError(.handshakeFailed, "the vault identity key is unavailable")
        }
    }

    /// Answers an envelope received on `OwnerSpace.{namespace}.forVault.sealed.{route}`: opens it in the table,
    /// runs the inner request's handler from `registry` for the member of the subject, and seals its answer; a
    /// refusal is answered as the table says (sealed after admission, plaintext before).
    /// - Returns: The bytes to publish and the refusal or handler error code, if the answer was not a success.
    public func sealed(
        _ envelope: [UInt8], namespace: VaultNamespace, registry: VaultHandlerRegistry, logger: Logger
    ) async -> (reply: [UInt8], failure: String?) {
        switch table.open(envelope, memberGUID: namespace.userGUID) {
        case .refused(let error, let reply, _):
            metrics?.sealedRequest(outcome: error.code.rawValue)
            logger.notice(
                "refused a sealed envelope", metadata: ["member": "\(namespace.userGUID)", "code": "\(error.code)"])
            return (reply, error.code.rawValue)
        case .admitted(let admitted):
            let result = await run(
                admitted.request, session: admitted.session, namespace: namespace, registry: registry, logger: logger)
            let (reply, failure) = Self.seal(result, for: admitted)
            metrics?.sealedRequest(outcome: failure ?? "ok")
            return (reply, failure)
        }
    }

    /// Seals the handler's result or error for `admitted`: the bytes and the failure's code, if any. A result too
    /// large for the session is answered with a sealed `message_too_large` (nothing was used up).
    private static func seal(
        _ result: Result<JSONValue, SessionHandlerError>, for admitted: AdmittedSessionRequest
    ) -> (reply: [UInt8], failure: String?) {
        do throws(SessionError) {
            switch result {
            case .success(let value):
                do throws(SessionError) {
                    return (try admitted.sealResult(value), nil)
                } catch {
                    guard error.code == .messageTooLarge else { throw error }
                    return (try admitted.sealFailure(SessionHandlerError(error)), error.code.rawValue)
                }
            case .failure(let error):
                return (try admitted.sealFailure(error), error.code.rawValue)
            }
        } catch {
            // Sealing a failure fails only beyond the session's size limit, which a code and a handler's short
            // message never reach; answer in the clear rather than not at all.
            return (SessionRefusal(error).bytes, error.code.rawValue)
        }
    }

    /// Drops the sessions of a device that is no longer enrolled (revoked or retired by a new enrollment).
    public func deviceRevoked(memberGUID: String, deviceThumbprint: String) async {
        table.removeSessions(memberGUID: memberGUID, deviceThumbprint: deviceThumbprint)
    }

    /// Runs the handler the inner request names for the session's device (``VaultHandlerRegistry``'s rules), as a
    /// session's handler error.
    private func run(
        _ request: SessionInnerRequest, session: SealedSession, namespace: VaultNamespace,
        registry: VaultHandlerRegistry, logger: Logger
    ) async -> Result<JSONValue, SessionHandlerError> {
        let about = VaultRequestLogContext(
            member: namespace.userGUID, type: VaultNamespace.sealedTypeToken, requestID: request.id)
        let result = await registry.run(
            request.handler, payload: request.body, namespace: namespace, requestID: request.id,
            deviceThumbprint: session.deviceThumbprint, logger: logger, about: about)
        return result.mapError { SessionHandlerError(.init(rawValue: $0.code.rawValue), $0.message) }
    }
}
