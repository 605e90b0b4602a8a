// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import NATSClient
import NIOCore
import VettIDClient
public import VettIDMessaging

/// The vault's answers on `OwnerSpace.{guid}.forApp.>` (request/reply traffic in the `forApp.inbox` is left out),
/// decoded. A message that is not a `VaultResponse` is skipped, logged and counted in ``undecodableCount``.
public struct VaultResponseSubscription: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = VaultResponse

    let base: NatsManagedSubscription
    let inboxPrefix: String
    let logger: Logger
    let counter: UndecodableCounter

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: NatsManagedSubscription.AsyncIterator
        let inboxPrefix: String
        let logger: Logger
        let counter: UndecodableCounter

        /// The next decoded response, or `nil` when the subscription has ended.
        public mutating func next() async -> VaultResponse? {
            while let message = await base.next() {
                if message.subject.hasPrefix(inboxPrefix) { continue }
                do {
                    return try VaultResponse.decode(message.payload.readableBytesView)
                } catch {
                    counter.increment()
                    logger.warning(
                        "NATS: skipped a message that is not a vault response",
                        metadata: ["nats.subject": "\(message.subject)", "error.code": "\(error.code)"])
                }
            }
            return nil
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), inboxPrefix: inboxPrefix, logger: logger, counter: counter)
    }

    /// Ends the subscription.
    public func unsubscribe() { base.unsubscribe() }

    /// Messages skipped because they were not vault responses.
    public var undecodableCount: Int { counter.value }
}
