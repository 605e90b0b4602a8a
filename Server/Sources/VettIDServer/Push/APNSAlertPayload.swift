// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

/// The body of every wake push: a content-free alert the app's Notification Service Extension replaces.
///
/// `{"aps":{"alert":{"title":…,"body":…},"mutable-content":1}}`: `mutable-content` hands the push to the
/// extension, which fetches the mailbox and shows the decrypted text, or leaves the neutral text when it cannot in
/// time. Nothing in it names the member, the sender or the message.
enum APNSAlertPayload {
    /// The JSON bytes for `title` and `body`.
    static func bytes(title: String, body: String) -> [UInt8] {
        JSONValue.object([
            (
                "aps",
                .object([
                    ("alert", .object([("title", .string(title)), ("body", .string(body))])),
                    ("mutable-content", .integer(1)),
                ])
            )
        ]).serialized()
    }
}
