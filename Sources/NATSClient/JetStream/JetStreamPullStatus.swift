// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What a message on a pull's reply subject means (NATS ADR-13 and ADR-37): a delivery, a heartbeat, the end of the
// pull, or a failure. nats-server 2.9.10 sends `404 No Messages` (no_wait, nothing there), `408 Request Timeout`
// (expired, or no_wait after fewer messages than the batch), `409 Message Size Exceeds MaxBytes`, `100 Idle
// Heartbeat`, `409 Consumer Deleted`, `400 Bad Request - …`.

/// The meaning of one message on a pull's reply subject.
enum JetStreamPullStatus {
    /// A stored message (no status).
    case message
    /// Status 100: the server is alive (idle heartbeat; a flow-control request is not expected on a pull).
    case heartbeat
    /// The pull is over without error: 404, 408, 409 `Message Size Exceeds MaxBytes`, 409 `Leadership Change`.
    case end
    /// The pull failed.
    case failure(JetStreamError)

    /// Classifies `message`.
    init(_ message: NATSMessage) {
        guard let status = message.status else {
            self = .message
            return
        }
        let text = message.headers?.statusDescription ?? ""
        let lowered = text.lowercased()
        let apiError = JetStreamAPIError(code: status, errorCode: 0, description: text)
        switch status {
        case 100:
            self = .heartbeat
        case 404, 408:
            self = .end
        case 409 where lowered.hasPrefix("message size exceeds maxbytes") || lowered.hasPrefix("leadership change"):
            self = .end
        case 409 where lowered.hasPrefix("consumer deleted"):
            self = .failure(JetStreamError(.consumerDeleted, "the consumer was deleted (409)", apiError: apiError))
        case 503:
            self = .failure(JetStreamError(.notEnabled, "no JetStream answers the pull (503)", apiError: apiError))
        default:
            self = .failure(JetStreamError(.pullRefused, "the pull was refused: \(status) \(text)", apiError: apiError))
        }
    }
}
