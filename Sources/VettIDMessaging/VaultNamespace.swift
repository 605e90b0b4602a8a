// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The subjects of one member's NATS namespaces, built in one place for the SDK, the server and the worker.

/// A member's NATS namespaces: `OwnerSpace.{guid}` (app ↔ vault) and `MessageSpace.{guid}` (vault ↔ others).
///
/// Every subject the SDK, the token issuer and the vault worker use is built here, so the three can never
/// disagree about the spelling of a member's space (the defect the first-generation backend had with dashes
/// in the GUID). The GUID is kept exactly as the server issues it: a lowercase UUID with dashes.
///
/// | subject | who publishes | who subscribes |
/// |---|---|---|
/// | `OwnerSpace.{guid}.forVault.{type}` | app | vault (worker) |
/// | `OwnerSpace.{guid}.forVault.session`, `.forVault.sealed.{route}` | app | vault (worker) |
/// | `OwnerSpace.{guid}.forApp.{type}.response` | vault (worker) | app |
/// | `OwnerSpace.{guid}.forApp.inbox.{id}` | vault (worker), as a reply | app (request/reply inbox) |
/// | `OwnerSpace.{guid}.eventTypes` | vault (worker) | app |
/// | `MessageSpace.{guid}.forOwner.>`, `.ownerProfile`, `.call.>` | vault | vault |
public struct VaultNamespace: Sendable, Hashable, CustomStringConvertible {
    /// The member's GUID as it appears in subjects.
    public let userGUID: String

    /// The root of the app ↔ vault space.
    public static let ownerSpaceRoot = "OwnerSpace"
    /// The root of the vault ↔ others space.
    public static let messageSpaceRoot = "MessageSpace"
    /// The queue group every vault worker joins, so each request is handled once.
    public static let workerQueueGroup = "vault-workers"
    /// What a vault worker subscribes to: every member's requests.
    public static let allForVault = "OwnerSpace.*.forVault.>"

    /// Validates `userGUID`: one subject token of letters, digits and dashes (1–64 characters).
    public init(userGUID: String) throws(VaultMessageError) {
        guard (1...64).contains(userGUID.utf8.count),
            userGUID.utf8.allSatisfy({ Self.isTokenByte($0) })
        else {
            throw VaultMessageError(.invalidSubject, "a member GUID is one subject token of letters, digits and dashes")
        }
        self.userGUID = userGUID
    }

    /// `OwnerSpace.{guid}`.
    public var ownerSpace: String { "\(Self.ownerSpaceRoot).\(userGUID)" }
    /// `MessageSpace.{guid}`.
    public var messageSpace: String { "\(Self.messageSpaceRoot).\(userGUID)" }

    /// `OwnerSpace.{guid}.forVault.{type}`: where the app sends a request of `type`.
    public func forVault(_ type: VaultMessageType) -> String { "\(ownerSpace).forVault.\(type.rawValue)" }
    /// `OwnerSpace.{guid}.forVault.session`: where the app sends a sealed session's handshake init (the vault answers
    /// on the init's reply subject).
    public var sessionInit: String { "\(ownerSpace).forVault.session" }
    /// `OwnerSpace.{guid}.forVault.sealed.{route}`: where the app sends a sealed session's request envelopes; `route`
    /// is the session's route (eight hex digits naming the vault instance that holds it).
    public func sealed(route: String) -> String { "\(ownerSpace).forVault.sealed.\(route)" }
    /// `OwnerSpace.{guid}.forVault.>`.
    public var forVaultWildcard: String { "\(ownerSpace).forVault.>" }
    /// `OwnerSpace.{guid}.forApp.{type}.response`: where the vault answers a request that had no reply subject.
    public func response(to type: String) -> String { "\(ownerSpace).forApp.\(type).response" }
    /// `OwnerSpace.{guid}.forApp.>`.
    public var forAppWildcard: String { "\(ownerSpace).forApp.>" }
    /// `OwnerSpace.{guid}.forApp.inbox`: the inbox prefix the app uses for request/reply. The app may
    /// subscribe to it (it is under `forApp.>`) and the vault may publish to it, so replies stay inside the
    /// member's space; the general `_INBOX.>` is not granted to anyone.
    public var appInboxPrefix: String { "\(ownerSpace).forApp.inbox" }
    /// `OwnerSpace.{guid}.eventTypes`: the handler catalogue the vault publishes.
    public var eventTypes: String { "\(ownerSpace).eventTypes" }

    /// `MessageSpace.{guid}.forOwner.{topic}`: what others send to the member's vault.
    public func forOwner(_ topic: String) -> String { "\(messageSpace).forOwner.\(topic)" }
    /// `MessageSpace.{guid}.forOwner.>`.
    public var forOwnerWildcard: String { "\(messageSpace).forOwner.>" }
    /// `MessageSpace.{guid}.ownerProfile`: the profile the member's vault publishes.
    public var ownerProfile: String { "\(messageSpace).ownerProfile" }
    /// `MessageSpace.{guid}.call.{topic}`: call signalling of the member's vault.
    public func call(_ topic: String) -> String { "\(messageSpace).call.\(topic)" }
    /// `MessageSpace.{guid}.call.>`.
    public var callWildcard: String { "\(messageSpace).call.>" }

    /// Whether `subject` is one the vault may answer this member on: inside `OwnerSpace.{guid}.forApp.`,
    /// with no wildcard. A worker checks a request's reply subject with this before publishing to it, so a
    /// request cannot make the worker write into another member's space.
    public func isReplySubject(_ subject: String) -> Bool {
        // One pass over the bytes (a worker checks every request's reply subject): the prefix
        // `OwnerSpace.{guid}.forApp.`, then one or more tokens that are neither empty nor wildcards and hold
        // no control characters or spaces.
        var subject = subject
        return subject.withUTF8 { bytes in
            guard let afterRoot = Self.offset(after: Self.ownerSpaceRoot, in: bytes, at: 0),
                let afterGUID = Self.offset(after: userGUID, in: bytes, at: afterRoot),
                let rest = Self.offset(after: "forApp", in: bytes, at: afterGUID), rest < bytes.count
            else { return false }
            return Self.isLiteralTokens(UnsafeBufferPointer(rebasing: bytes[rest...]))
        }
    }

    /// Whether `bytes` are one or more tokens that are neither empty nor wildcards and hold no control
    /// characters or spaces.
    private static func isLiteralTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var tokenLength = 0
        var firstByte: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard Self.isLiteralToken(length: tokenLength, first: firstByte) else { return false }
                tokenLength = 0
                continue
            }
            guard byte > 0x20, byte != 0x7F else { return false }
            if tokenLength == 0 { firstByte = byte }
            tokenLength += 1
        }
        return Self.isLiteralToken(length: tokenLength, first: firstByte)
    }

    /// A token that is neither empty nor the wildcard `*` or `>`.
    private static func isLiteralToken(length: Int, first: UInt8) -> Bool {
        length > 1 || (length == 1 && first != UInt8(ascii: "*") && first != UInt8(ascii: ">"))
    }

    /// Splits a request subject `OwnerSpace.{guid}.forVault.{type…}` into the member's namespace and the
    /// request type (the rest of the subject); `nil` if the subject is not of that shape.
    public static func parseRequestSubject(_ subject: String) -> (namespace: VaultNamespace, type: String)? {
        // Over the contiguous UTF-8 bytes (a worker parses every request's subject).
        var subject = subject
        return subject.withUTF8 { bytes -> (VaultNamespace, String)? in
            guard let guidStart = Self.offset(after: ownerSpaceRoot, in: bytes, at: 0),
                let guidEnd = bytes[guidStart...].firstIndex(of: UInt8(ascii: ".")),
                let typeStart = Self.offset(after: "forVault", in: bytes, at: guidEnd + 1), typeStart < bytes.count,
                let namespace = try? VaultNamespace(
                    userGUID: String(decoding: UnsafeBufferPointer(rebasing: bytes[guidStart..<guidEnd]), as: UTF8.self)
                )
            else { return nil }
            return (namespace, String(decoding: UnsafeBufferPointer(rebasing: bytes[typeStart...]), as: UTF8.self))
        }
    }

    /// The offset just after `token.` when `bytes` hold it at `start`, else `nil`.
    @inline(__always)
    private static func offset(after token: String, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let dot = start + token.utf8.count
        guard dot < bytes.count, bytes[dot] == UInt8(ascii: "."),
            bytes[start..<dot].elementsEqual(token.utf8)
        else { return nil }
        return dot + 1
    }

    public var description: String { ownerSpace }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
