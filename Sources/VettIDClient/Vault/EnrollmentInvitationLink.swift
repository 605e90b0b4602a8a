// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// An enrollment invitation as the app scans it: `vettid://enroll?code=<XXXX-XXXX>&api=<percent-encoded origin>`.
///
/// The code is validated against the invitation alphabet `ABCDEFGHJKMNPQRSTUVWXYZ23456789` (no 0/O, 1/I/L) and
/// normalised to upper case; the API must be an `http`/`https` origin. Check that ``apiOrigin`` is a server the
/// app is willing to talk to before redeeming the code (``VaultService`` refuses another origin with
/// `untrusted_origin`).
///
/// ```swift
/// let link = try EnrollmentInvitationLink(parsing: scannedText)
/// // link.code == "K7QM-3XPA", link.apiOrigin == https://api.example.com
/// ```
public struct EnrollmentInvitationLink: Sendable, Hashable, CustomStringConvertible {
    /// The characters an invitation code is made of.
    public static let codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    /// The URL scheme of the QR payload.
    public static let scheme = "vettid"
    /// The host (action) of the QR payload.
    public static let action = "enroll"

    /// The invitation code, `XXXX-XXXX` in upper case.
    public let code: String
    /// The API origin, `scheme://host[:port]` without a trailing slash.
    public let apiOrigin: URL

    /// Creates a link from a typed code and a known API origin.
    /// - Throws: ``InvitationLinkError`` `invalid_code` or `invalid_api`.
    public init(code: String, apiOrigin: URL) throws(InvitationLinkError) {
        self.code = try Self.normalizedCode(code)
        self.apiOrigin = try Self.validatedOrigin(apiOrigin.absoluteString)
    }

    /// Parses a scanned QR payload.
    ///
    /// Unknown query parameters are ignored (later payload versions may add some); a repeated `code` or `api` is
    /// refused. Surrounding whitespace is ignored.
    /// - Throws: ``InvitationLinkError``.
    public init(parsing payload: String) throws(InvitationLinkError) {
        let text = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: text),
            components.scheme?.lowercased() == Self.scheme,
            components.host?.lowercased() == Self.action,
            components.path.isEmpty || components.path == "/",
            components.user == nil, components.password == nil, components.port == nil, components.fragment == nil
        else {
            throw InvitationLinkError(
                code: .notAnInvitation, message: "The text is not a vettid://enroll invitation link.")
        }
        let items = components.queryItems ?? []
        let codes = items.filter { $0.name == "code" }.compactMap(\.value)
        guard codes.count == 1, items.filter({ $0.name == "code" }).count == 1 else {
            throw InvitationLinkError(code: .missingCode, message: "The invitation link must carry exactly one code.")
        }
        let origins = items.filter { $0.name == "api" }.compactMap(\.value)
        guard origins.count == 1, items.filter({ $0.name == "api" }).count == 1 else {
            throw InvitationLinkError(
                code: .missingAPIOrigin, message: "The invitation link must carry exactly one API origin.")
        }
        self.code = try Self.normalizedCode(codes[0])
        self.apiOrigin = try Self.validatedOrigin(origins[0])
    }

    /// The QR payload for this invitation (the origin percent-encoded as the server writes it).
    public var payload: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let api =
            apiOrigin.absoluteString.addingPercentEncoding(withAllowedCharacters: allowed) ?? apiOrigin.absoluteString
        return "\(Self.scheme)://\(Self.action)?code=\(code)&api=\(api)"
    }

    /// Shows the origin only: the code redeems an invitation and stays out of logs.
    public var description: String { "EnrollmentInvitationLink(api: \(apiOrigin.absoluteString))" }

    /// Normalises a typed or scanned code: surrounding whitespace removed, upper case, `XXXX-XXXX`.
    ///
    /// Eight alphabet characters without the dash are accepted too (people type codes by hand) and get the dash.
    /// - Throws: ``InvitationLinkError`` `invalid_code`.
    public static func normalizedCode(_ text: String) throws(InvitationLinkError) -> String {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        var characters = Array(upper.unicodeScalars)
        if characters.count == 8 { characters.insert("-", at: 4) }
        let alphabet = Set(codeAlphabet.unicodeScalars)
        guard characters.count == 9, characters[4] == "-",
            characters.enumerated().allSatisfy({ $0.offset == 4 || alphabet.contains($0.element) })
        else {
            throw InvitationLinkError(
                code: .invalidCode,
                message: "An invitation code is XXXX-XXXX over \(codeAlphabet) (no 0, O, 1, I or L)."
            )
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: characters)
        return result
    }

    /// Validates an API origin: `http`/`https`, a host, an optional port, and nothing else (a lone `/` path is
    /// dropped).
    static func validatedOrigin(_ text: String) throws(InvitationLinkError) -> URL {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil,
            components.path.isEmpty || components.path == "/",
            components.query == nil, components.fragment == nil
        else {
            throw InvitationLinkError(
                code: .invalidAPIOrigin,
                message: "The API must be an http or https origin (scheme, host and optional port only)."
            )
        }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host.lowercased()
        origin.port = components.port
        guard let url = origin.url else {
            throw InvitationLinkError(code: .invalidAPIOrigin, message: "The API origin is not a valid URL.")
        }
        return url
    }
}
