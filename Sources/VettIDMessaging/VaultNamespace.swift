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
        let prefix = "\(ownerSpace).forApp."
        guard subject.hasPrefix(prefix), subject.utf8.count > prefix.utf8.count else { return false }
        return subject.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { token in
            !token.isEmpty && token != "*" && token != ">" && token.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
        }
    }

    /// Splits a request subject `OwnerSpace.{guid}.forVault.{type…}` into the member's namespace and the
    /// request type (the rest of the subject); `nil` if the subject is not of that shape.
    public static func parseRequestSubject(_ subject: String) -> (namespace: VaultNamespace, type: String)? {
        let tokens = subject.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard tokens.count == 4, tokens[0] == ownerSpaceRoot, tokens[2] == "forVault", !tokens[3].isEmpty,
            let namespace = try? VaultNamespace(userGUID: String(tokens[1]))
        else { return nil }
        return (namespace, String(tokens[3]))
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
