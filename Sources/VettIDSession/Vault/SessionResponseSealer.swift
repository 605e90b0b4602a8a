// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDCrypto

// The one response an admitted sequence number may have.

/// Seals the response to one admitted request, once: a second seal under the same (`k_v2a`, sequence) would let an
/// observer combine the two ciphertexts, so it throws `already_answered`.
final class SessionResponseSealer: Sendable {
    let channel: SessionChannel
    let sequence: UInt64
    private let used = LockedValue(false)

    init(channel: SessionChannel, sequence: UInt64) {
        self.channel = channel
        self.sequence = sequence
    }

    /// Seals `response`; only the first successful call seals.
    /// - Throws: `message_too_large` (nothing is used up: seal a smaller answer), `already_answered`.
    func seal(_ response: SessionInnerResponse) throws(SessionError) -> [UInt8] {
        let inner = response.bytes
        guard inner.count <= channel.padding.maxInnerLength else {
            throw SessionError(.messageTooLarge, "the response's \(inner.count) bytes exceed the session's limit")
        }
        let first = used.withLock { used in
            defer { used = true }
            return !used
        }
        guard first else { throw SessionError(.alreadyAnswered, "request \(sequence) was already answered") }
        return try channel.sealResponse(inner, sequence: sequence)
    }
}
