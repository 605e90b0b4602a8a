// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// One publish as it is queued: its header block encoded once, when the publish is made, so the size checks
// and the frame written use the same bytes.

import NIOCore

struct NATSPublishFrame {
    let subject: String
    var replyTo: String?
    /// `NATS/1.0 …` header block (HPUB), or `nil` for a plain PUB.
    let headerBlock: ByteBuffer?
    let payload: ByteBuffer

    /// Validates the subject and encodes the headers.
    init(subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer) throws(NATSError) {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        self.init(validSubject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    /// Encodes the headers of a publish whose subject the caller has validated (not thrown through, so the
    /// publish path builds the frame in place).
    init(validSubject subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer) {
        self.subject = subject
        self.replyTo = replyTo
        self.payload = payload
        if let headers {
            var block = ByteBuffer()
            block.writeNATSHeaderBlock(headers)
            headerBlock = block
        } else {
            headerBlock = nil
        }
    }

    /// What the server counts against `max_payload`: header block and payload.
    var size: Int { (headerBlock?.readableBytes ?? 0) + payload.readableBytes }
}
