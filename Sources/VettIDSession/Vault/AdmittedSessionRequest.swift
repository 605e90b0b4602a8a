// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCrypto

// A request the vault admitted: the handler runs it, and its answer is sealed once.

/// An admitted request: run ``request``'s handler for ``session``'s member and device, then publish the bytes of
/// ``seal(_:)`` (or ``sealResult(_:)`` / ``sealFailure(_:)``) on the reply subject. One answer per request: a second
/// seal throws `already_answered`.
public struct AdmittedSessionRequest: Sendable {
    /// The inner request.
    public let request: SessionInnerRequest
    /// The session it came in (member, device, limits).
    public let session: SealedSession
    private let sealer: SessionResponseSealer

    init(request: SessionInnerRequest, session: SealedSession, sealer: SessionResponseSealer) {
        self.request = request
        self.session = session
        self.sealer = sealer
    }

    /// The request's sequence number.
    public var sequence: UInt64 { sealer.sequence }

    /// Seals the answer.
    /// - Throws: `message_too_large` (nothing is used up: answer with a smaller message, such as a failure),
    ///   `already_answered`.
    public func seal(_ response: SessionInnerResponse) throws(SessionError) -> [UInt8] {
        try sealer.seal(response)
    }

    /// Seals `{"id","ok":true,"result"}`.
    public func sealResult(_ result: JSONValue) throws(SessionError) -> [UInt8] {
        try seal(.success(id: request.id, result: result))
    }

    /// Seals `{"id","ok":false,"error"}`.
    public func sealFailure(_ error: SessionHandlerError) throws(SessionError) -> [UInt8] {
        try seal(.failure(id: request.id, error: error))
    }
}
