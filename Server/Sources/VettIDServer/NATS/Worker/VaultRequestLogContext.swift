// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the worker's log messages about one request carry, kept as plain fields until a message is logged.

import Logging

/// The member, request type, request id and handler id of one vault request, as log metadata.
///
/// The processor fills it in as it learns each field and turns it into `Logger.Metadata` only inside a log
/// call's metadata argument, which swift-log evaluates only when the message is logged at all: a request that
/// logs nothing costs no metadata dictionary and no formatting pass.
struct VaultRequestLogContext: Sendable {
    /// The member's GUID (from the subject).
    var member: String
    /// The request type token (from the subject; at most 64 characters are logged).
    var type: String
    /// The request's `id`, once the body has been decoded.
    var requestID: String?
    /// The handler an `execute` request names.
    var handlerID: String?

    /// The fields as metadata, with `extra` added (extra wins on a clash).
    func metadata(_ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["member": "\(member)", "type": "\(type.prefix(64))"]
        if let requestID { metadata["request_id"] = "\(requestID)" }
        if let handlerID { metadata["handler_id"] = "\(handlerID)" }
        return metadata.merging(extra) { _, extra in extra }
    }
}
