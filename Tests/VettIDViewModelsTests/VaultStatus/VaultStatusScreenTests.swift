// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient

@testable import VettIDViewModels

@Suite("Vault status screen presentation")
struct VaultStatusScreenTests {
    static let active = VaultStatus(
        status: .active, userGUID: "user-1", enrolledAt: novemberAfternoon.addingTimeInterval(-86_400 * 30),
        lastAuthAt: novemberAfternoon.addingTimeInterval(-3_600), lastSyncAt: novemberAfternoon,
        transactionKeysRemaining: 1_024, credentialVersion: 3)

    @Test("loading shows a spinner, no card, no pull to refresh")
    func loading() {
        let screen = VaultStatusScreen(state: .loading, format: usUTC)
        #expect(screen.title == "Vault Status")
        #expect(screen.showsProgress)
        #expect(screen.card == nil)
        #expect(!screen.allowsRefresh)
        #expect(screen.progressLabel == "Loading the vault status")
    }

    @Test("active: the seed's rows in order, formatted dates and counts, Sync Now")
    func active() throws {
        let screen = VaultStatusScreen(state: .active(Self.active), format: usUTC)
        let card = try #require(screen.card)
        #expect(card.badge == StatusBadge(symbolName: "checkmark.shield.fill", tone: .positive, text: "Vault Active"))
        #expect(card.message == nil)
        // ICU puts a narrow no-break space before AM/PM; compared as a plain space.
        #expect(
            card.rows.map { InfoRowContent(label: $0.label, value: plainSpaces($0.value)) } == [
                InfoRowContent(label: "Last Sync", value: "Nov 25, 2026 at 1:05 PM"),
                InfoRowContent(label: "Transaction Keys", value: "1,024"),
                InfoRowContent(label: "Credential Version", value: "3"),
                InfoRowContent(label: "Last Unlock", value: "Nov 25, 2026 at 12:05 PM"),
                InfoRowContent(label: "Enrolled", value: "Oct 26, 2026"),
            ])
        #expect(plainSpaces(card.rows[0].accessibilityLabel) == "Last Sync: Nov 25, 2026 at 1:05 PM")
        #expect(card.action?.kind == .sync)
        #expect(card.action?.title == "Sync Now")
        #expect(card.action?.isEnabled == true)
        #expect(screen.allowsRefresh)
        #expect(!screen.showsProgress)
    }

    @Test("active without a sync says Never; few or no keys warn")
    func activeEdges() throws {
        var status = Self.active
        status.lastSyncAt = nil
        status.transactionKeysRemaining = 4
        let card = try #require(VaultStatusScreen(state: .active(status), format: usUTC).card)
        #expect(card.rows[0] == InfoRowContent(label: "Last Sync", value: "Never"))
        #expect(card.message == "Few transaction keys left: sync to replenish them.")
        status.transactionKeysRemaining = 0
        #expect(
            VaultStatusScreen(state: .active(status), format: usUTC).card?.message
                == "No transaction keys left: sync before you unlock the vault again.")
        status.transactionKeysRemaining = VaultStatusScreen.lowKeyThreshold
        #expect(VaultStatusScreen(state: .active(status), format: usUTC).card?.message == nil)
        status.transactionKeysRemaining = nil
        #expect(
            VaultStatusScreen(state: .active(status), format: usUTC).card?.rows[1]
                == InfoRowContent(label: "Transaction Keys", value: "Unknown"))
    }

    @Test("while busy every button is disabled and pull to refresh is off")
    func busy() throws {
        let screen = VaultStatusScreen(state: .active(Self.active), isBusy: true, format: usUTC)
        #expect(screen.card?.action?.isEnabled == false)
        #expect(!screen.allowsRefresh)
    }

    @Test("not enrolled offers enrollment")
    func notEnrolled() throws {
        let card = try #require(VaultStatusScreen(state: .notEnrolled, format: usUTC).card)
        #expect(card.badge.tone == .caution)
        #expect(card.action?.kind == .enroll)
        #expect(card.action?.title == "Set Up Vault")
        #expect(card.rows.isEmpty)
    }

    @Test("pending and enrolled offer to check again; enrolled shows what the server reported")
    func pendingAndEnrolled() throws {
        let pending = try #require(VaultStatusScreen(state: .pending, format: usUTC).card)
        #expect(pending.badge.text == "Setup in Progress")
        #expect(pending.action == ScreenAction(.refresh, title: "Check Again", role: .secondary))
        let enrolled = try #require(
            VaultStatusScreen(
                state: .enrolled(
                    VaultStatus(
                        status: .enrolled, enrolledAt: novemberAfternoon, transactionKeysRemaining: 20)),
                format: usUTC
            ).card)
        #expect(enrolled.badge.text == "Vault Enrolled")
        #expect(
            enrolled.rows == [
                InfoRowContent(label: "Transaction Keys", value: "20"),
                InfoRowContent(label: "Enrolled", value: "Nov 25, 2026"),
            ])
        #expect(enrolled.action?.kind == .refresh)
    }

    @Test("a retryable error offers Try Again, another one Reload")
    func errors() throws {
        let retryable = try #require(
            VaultStatusScreen(state: .error(message: "Cannot reach the server.", retryable: true), format: usUTC).card)
        #expect(retryable.badge.tone == .critical)
        #expect(retryable.message == "Cannot reach the server.")
        #expect(retryable.action?.kind == .retry)
        #expect(retryable.action?.title == "Try Again")
        let final = try #require(
            VaultStatusScreen(state: .error(message: "Update the app.", retryable: false), format: usUTC).card)
        #expect(final.action?.kind == .refresh)
    }

    @Test("an ended session asks to sign in and offers no refresh")
    func signInRequired() throws {
        let screen = VaultStatusScreen(state: .signInRequired, format: usUTC)
        #expect(screen.card?.action?.kind == .signIn)
        #expect(!screen.allowsRefresh)
        #expect(!screen.showsProgress)
    }

    @Test("the home card: the seed's symbol and text for every state")
    func homeCard() {
        let cases: [(VaultState, String, String, Tone)] = [
            (.loading, "ellipsis", "Loading…", .busy),
            (.notEnrolled, "lock.open", "Not Set Up", .caution),
            (.pending, "arrow.triangle.2.circlepath", "Setup in Progress", .busy),
            (.enrolled(VaultStatus(status: .enrolled)), "arrow.triangle.2.circlepath", "Enrolled", .busy),
            (.active(Self.active), "lock.shield.fill", "Active", .positive),
            (.error(message: "x", retryable: true), "exclamationmark.triangle", "Error", .critical),
            (.signInRequired, "person.crop.circle.badge.exclamationmark", "Signed Out", .caution),
        ]
        for (state, symbol, text, tone) in cases {
            let card = VaultStatusCardContent(state: state)
            #expect(card.title == "Vault")
            #expect(card.badge == StatusBadge(symbolName: symbol, tone: tone, text: text), "\(state)")
            #expect(card.accessibilityLabel == "Vault, \(text)")
        }
    }

    @Test("the view model's screen follows its state")
    @MainActor
    func viewModelScreen() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [.success(Self.active)]
        let model = VaultStatusViewModel(actions: script.actions)
        #expect(model.screen(format: usUTC).showsProgress)
        await model.refresh()
        #expect(model.screen(format: usUTC).card?.badge.text == "Vault Active")
        #expect(model.card.badge.text == "Active")
    }

    @Test("every tone has its own symbol, so no message relies on colour alone")
    func toneSymbols() {
        let symbols = Tone.allCases.map(\.symbolName)
        #expect(Set(symbols).count == Tone.allCases.count)
        #expect(Tone.critical.symbolName == "xmark.octagon")
        #expect(Tone.caution.symbolName == "exclamationmark.triangle")
    }
}
