// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A MSG or HMSG frame without its payload: what the channel handler collects while it parses a read, before it
// copies the payloads of the batch into one buffer of their own.

import NIOCore

/// A parsed `MSG` or `HMSG` frame whose payload is still in the buffer it was parsed from.
///
/// The channel handler keeps these (no reference to the read buffer per message) and, once per batch, copies the
/// payloads into one buffer and makes each ``NATSMessage`` with a slice of it: a message is built once, with its
/// final payload, instead of with a slice of the read buffer that is then replaced.
struct NATSMessageFrame {
    let sid: UInt64
    let subject: String
    let replyTo: String?
    let headers: NATSHeaders?
    /// Where the payload (after any header block) starts in the buffer the frame was parsed from.
    let payloadIndex: Int
    let payloadLength: Int

    /// The index after the frame's closing CRLF.
    var end: Int { payloadIndex + payloadLength + 2 }

    /// The message, with `payload` (this frame's payload bytes, wherever they now are).
    func message(payload: ByteBuffer) -> NATSMessage {
        NATSMessage(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }
}
