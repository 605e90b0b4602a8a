// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDMessaging

@Suite struct VaultNamespaceTests {
    let guid = "0b7c9d2e-1f3a-4b5c-8d6e-7f8091a2b3c4"

    @Test func subjectsKeepTheGUIDExactly() throws {
        let namespace = try VaultNamespace(userGUID: guid)
        #expect(namespace.ownerSpace == "OwnerSpace.\(guid)")
        #expect(namespace.messageSpace == "MessageSpace.\(guid)")
        #expect(namespace.forVault(.execute) == "OwnerSpace.\(guid).forVault.execute")
        #expect(namespace.response(to: "status") == "OwnerSpace.\(guid).forApp.status.response")
        #expect(namespace.appInboxPrefix == "OwnerSpace.\(guid).forApp.inbox")
        #expect(namespace.eventTypes == "OwnerSpace.\(guid).eventTypes")
    }

    @Test(arguments: ["", "a.b", "a*", ">", "a b", "gu\u{e9}id", String(repeating: "a", count: 65)])
    func guidsThatWouldBreakSubjectsAreRefused(_ bad: String) {
        #expect(throws: VaultMessageError.self) { try VaultNamespace(userGUID: bad) }
    }

    @Test func sealedSessionSubjectsAreUnderForVaultAndTheAppMayPublishThem() throws {
        let namespace = try VaultNamespace(userGUID: guid)
        #expect(namespace.sessionInit == "OwnerSpace.\(guid).forVault.session")
        #expect(namespace.sealed(route: "0a1b2c3d") == "OwnerSpace.\(guid).forVault.sealed.0a1b2c3d")
        let app = NatsPermissionSet.forClient(.app, in: namespace)
        for subject in [namespace.sessionInit, namespace.sealed(route: "0a1b2c3d")] {
            #expect(app.publish.contains { Self.matches(pattern: $0, subject: subject) }, "\(subject)")
        }
        let other = try VaultNamespace(userGUID: "1b7c9d2e-1f3a-4b5c-8d6e-7f8091a2b3c4")
        #expect(!app.publish.contains { Self.matches(pattern: $0, subject: other.sessionInit) })
        // The worker's queue subscription receives both.
        let workerPattern = try #require(NatsPermissionSet.worker.subscribe.first?.split(separator: " ").first)
        #expect(Self.matches(pattern: String(workerPattern), subject: namespace.sealed(route: "0a1b2c3d")))
    }

    /// NATS subject matching: `*` is one token, a final `>` one or more.
    static func matches(pattern: String, subject: String) -> Bool {
        let pattern = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let subject = subject.split(separator: ".", omittingEmptySubsequences: false)
        for (index, token) in pattern.enumerated() {
            if token == ">" { return index == pattern.count - 1 && subject.count > index }
            guard index < subject.count, token == "*" || token == subject[index] else { return false }
        }
        return pattern.count == subject.count
    }

    @Test func permissionsAreExactlyTheDocumentedOnes() throws {
        let namespace = try VaultNamespace(userGUID: guid)
        let app = NatsPermissionSet.forClient(.app, in: namespace)
        #expect(app.publish == ["OwnerSpace.\(guid).forVault.>"])
        #expect(app.subscribe == ["OwnerSpace.\(guid).forApp.>", "OwnerSpace.\(guid).eventTypes"])
        let vault = NatsPermissionSet.forClient(.vault, in: namespace)
        #expect(vault.subscribe.contains("OwnerSpace.\(guid).forVault.>"))
        #expect(vault.publish.contains("OwnerSpace.\(guid).forApp.>"))
        #expect(vault.publish.contains("MessageSpace.\(guid).forOwner.>"))
        #expect(!vault.publish.contains { $0.hasPrefix("OwnerSpace.\(guid).forVault") })
        #expect(!app.subscribe.contains { $0.contains("_INBOX") || $0.contains("*") })
    }

    @Test func requestSubjectsParseIntoMemberAndType() throws {
        let parsed = try #require(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVault.execute"))
        #expect(parsed.namespace.userGUID == guid)
        #expect(parsed.type == "execute")
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forApp.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("MessageSpace.\(guid).forVault.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVault") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVault.") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid)") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpaces.\(guid).forVault.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVaults.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.a_b.forVault.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace..forVault.execute") == nil)
        #expect(VaultNamespace.parseRequestSubject("") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace") == nil)
        #expect(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVaul") == nil)
        let nested = try #require(VaultNamespace.parseRequestSubject("OwnerSpace.\(guid).forVault.execute.more"))
        #expect(nested.namespace.userGUID == guid)
        #expect(nested.type == "execute.more")
    }

    @Test func replySubjectsOutsideTheMembersForAppSpaceAreRefused() throws {
        let namespace = try VaultNamespace(userGUID: guid)
        #expect(namespace.isReplySubject("OwnerSpace.\(guid).forApp.inbox.abc123"))
        #expect(!namespace.isReplySubject("OwnerSpace.someone-else.forApp.inbox.abc"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forVault.execute"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.>"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.*.x"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp."))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp..x"))
        #expect(!namespace.isReplySubject("_INBOX.abc"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid)x.forApp.inbox.abc"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.inbox."))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.inbox.>"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.in box"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp.inbox\u{7F}"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApps.inbox"))
        #expect(!namespace.isReplySubject(""))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid).forApp"))
        #expect(!namespace.isReplySubject("OwnerSpace.\(guid.dropLast()).forApp.inbox.abc"))
        #expect(namespace.isReplySubject("OwnerSpace.\(guid).forApp.x"))
        #expect(namespace.isReplySubject("OwnerSpace.\(guid).forApp.a*.b>"))
    }
}
