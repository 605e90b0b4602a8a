// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// Recognises a server's demand for a DPoP nonce (RFC 9449 §8 and §9).
///
/// - Authorization server (token endpoints): 400 with the JSON body `{"error":"use_dpop_nonce"}`.
/// - Resource server: 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`.
///
/// Either way the response must carry a `DPoP-Nonce`: without a new nonce a retry could not succeed.
public enum DPoPNonceChallenge {
    /// The `DPoP-Nonce` header field name.
    public static let nonceField = HTTPField.Name("DPoP-Nonce")!
    /// The `DPoP` header field name.
    public static let proofField = HTTPField.Name("DPoP")!

    /// Whether the response demands a nonce. `body` is needed only for a 400 (pass what was read of it).
    public static func isNonceChallenge(_ response: HTTPResponse, body: Data?) -> Bool {
        guard let nonce = response.headerFields[nonceField], !nonce.isEmpty else { return false }
        switch response.status.code {
        case 400:
            guard let body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                return false
            }
            return object["error"] as? String == "use_dpop_nonce"
        case 401:
            return response.headerFields[values: .wwwAuthenticate].contains {
                dpopError(inWWWAuthenticate: $0) == "use_dpop_nonce"
            }
        default:
            return false
        }
    }

    /// The `error` parameter of a `DPoP` challenge in a `WWW-Authenticate` value, or `nil`.
    ///
    /// Accepts `DPoP error="use_dpop_nonce", algs="ES256"` and the unquoted token form; the scheme name is
    /// case-insensitive (RFC 9110 §11.1).
    public static func dpopError(inWWWAuthenticate value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 4, trimmed.prefix(4).lowercased() == "dpop", trimmed.dropFirst(4).first == " " else {
            return nil
        }
        var rest = Substring(trimmed.dropFirst(5))
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var parameterValue: Substring
            if rest.first == "\"" {
                let afterQuote = rest.dropFirst()
                guard let close = afterQuote.firstIndex(of: "\"") else { return nil }
                parameterValue = afterQuote[..<close]
                rest = afterQuote[afterQuote.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                parameterValue = rest[..<end]
                rest = rest[end...]
            }
            if name == "error" { return parameterValue.trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
