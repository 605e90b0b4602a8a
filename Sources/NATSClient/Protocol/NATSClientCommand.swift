// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A client-to-server control operation the connection writes with ``NIOCore/ByteBuffer/writeNATSCommand(_:)``.
///
/// Publishes (`PUB`/`HPUB`) and `CONNECT` have their own writers; the connection's hot path builds no values
/// of this type for them.
enum NATSClientCommand: Sendable, Equatable {
    /// `SUB subject [queue] sid`.
    case subscribe(subject: String, queue: String?, sid: UInt64)
    /// `UNSUB sid [max]`.
    case unsubscribe(sid: UInt64, max: Int?)
    /// `PING`.
    case ping
    /// `PONG`.
    case pong
}
