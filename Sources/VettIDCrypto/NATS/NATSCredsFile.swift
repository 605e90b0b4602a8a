// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The standard NATS creds file: a decorated user JWT followed by a decorated user seed
// (nats-io/jwt v2 creds_utils.go, nats-io/nkeys creds_utils.go).

/// The contents of a NATS `.creds` file: a user JWT and the user's NKey seed.
///
/// ``description`` never prints the seed.
public struct NATSCredsFile: Sendable, Equatable, CustomStringConvertible {
    /// The user JWT.
    public let jwt: String
    /// The user NKey seed (`SU…`). Secret: never log it.
    public let seed: String

    /// Creates creds from a JWT and a seed.
    public init(jwt: String, seed: String) {
        self.jwt = jwt
        self.seed = seed
    }

    /// Parses creds text.
    ///
    /// Decorated input (`-----BEGIN …-----` / `------END …------` blocks): the first block is the JWT and
    /// the second the seed. Undecorated input: the first line containing a `.` is the JWT and the first
    /// line starting `SO`, `SA` or `SU` is the seed. CRLF and LF line endings are both accepted.
    public static func parse(_ text: String) throws(NATSJWTError) -> NATSCredsFile {
        // In Swift "\r\n" is one Character, so split on both forms.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
            line in
            line.hasSuffix("\r") ? line.dropLast() : line[...]
        }
        var blocks: [Substring] = []
        var index = 0
        while index + 2 < lines.count {
            if isDecoration(lines[index]), isToken(lines[index + 1]), isDecoration(lines[index + 2]) {
                blocks.append(lines[index + 1])
                index += 3
            } else {
                index += 1
            }
        }
        if blocks.count >= 2 {
            return NATSCredsFile(jwt: String(blocks[0]), seed: String(blocks[1]))
        }
        let trimmed = lines.map(trimSpaces)
        let seed = trimmed.first { $0.hasPrefix("SO") || $0.hasPrefix("SA") || $0.hasPrefix("SU") }
        let jwt = blocks.first ?? trimmed.first { $0.contains(".") && isToken($0) }
        guard let jwt, let seed else {
            throw NATSJWTError(.invalidCreds, "creds must contain a user JWT and a user seed")
        }
        return NATSCredsFile(jwt: String(jwt), seed: String(seed))
    }

    /// The creds in the standard decorated format, byte-identical to nats-io/jwt `FormatUserConfig`.
    public var formatted: String {
        """
        -----BEGIN NATS USER JWT-----
        \(jwt)
        ------END NATS USER JWT------

        ************************* IMPORTANT *************************
        NKEY Seed printed below can be used to sign and prove identity.
        NKEYs are sensitive and should be treated as secrets.

        -----BEGIN USER NKEY SEED-----
        \(seed)
        ------END USER NKEY SEED------

        *************************************************************

        """
    }

    /// The JWT only; the seed is redacted.
    public var description: String { "NATSCredsFile(jwt: \(jwt), seed: <redacted>)" }

    private static func isDecoration(_ line: Substring) -> Bool {
        let trimmed = trimSpaces(line)
        return trimmed.count >= 6 && trimmed.hasPrefix("---") && trimmed.hasSuffix("---")
    }

    private static func isToken(_ line: Substring) -> Bool {
        !line.isEmpty
            && line.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                    UInt8(ascii: "."), UInt8(ascii: "="):
                    true
                default:
                    false
                }
            }
    }

    private static func trimSpaces(_ line: Substring) -> Substring {
        var result = line
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
