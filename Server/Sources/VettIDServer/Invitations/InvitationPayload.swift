// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The QR payload of an invitation: `vettid://enroll?code=<code>&api=<percent-encoded API origin>`.
///
/// The app scans it, checks that `api` is an http(s) origin it is willing to talk to, and redeems `code` at
/// `<api>/vault/enroll/start`. The payload carries no secret beyond the single-use, expiring code.
public enum InvitationPayload {
    /// The payload for `code` at `origin`.
    public static func make(code: InvitationCode, origin: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let api = origin.addingPercentEncoding(withAllowedCharacters: allowed) ?? origin
        return "vettid://enroll?code=\(code.value)&api=\(api)"
    }
}
