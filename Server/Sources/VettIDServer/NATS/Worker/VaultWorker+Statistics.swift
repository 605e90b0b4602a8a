// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The vault worker's counters.

extension VaultWorker {
    /// Counters of what the worker did since it started.
    public struct Statistics: Sendable, Hashable {
        /// Messages delivered to the worker.
        public var received: UInt64 = 0
        /// Requests answered (successfully or with an error response).
        public var answered: UInt64 = 0
        /// Answers that were error responses (`success: false`).
        public var errors: UInt64 = 0
        /// Messages dropped because their subject is not a request subject (nothing was answered).
        public var ignored: UInt64 = 0
        /// Answers that could not be published (connection closed, buffer full, …).
        public var publishFailures: UInt64 = 0
        /// Sealed-session inits answered (a response or a refusal); also counted in ``answered``.
        public var handshakes: UInt64 = 0
        /// Sealed-session envelopes answered (sealed or refused); also counted in ``answered``.
        public var sealedRequests: UInt64 = 0
        /// Requests being processed right now.
        public var inFlight: Int = 0
        /// Asynchronous errors nats-server reported (permissions violations, slow consumer, …).
        public var natsErrors: UInt64 = 0
        /// Successful reconnects of the worker's NATS connection.
        public var reconnects: UInt64 = 0

        public init() {}
    }
}
