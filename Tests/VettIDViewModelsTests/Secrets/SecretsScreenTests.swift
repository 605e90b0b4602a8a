// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDMessaging

@testable import VettIDViewModels

@Suite("Secrets screen presentation")
struct SecretsScreenTests {
    static let listed = [
        sampleSecret("wifi", version: 3, size: 1_024, updatedAt: novemberAfternoonMilliseconds - 3_600_000),
        sampleSecret("bank-pin", version: 1, size: 1),
    ]

    static func state(_ activity: SecretsState.Activity, secrets: [SecretSummary]? = listed) -> SecretsState {
        SecretsState(secrets: secrets, limits: secrets == nil ? nil : .standard, activity: activity)
    }

    @Test("loading: a spinner, no rows, no form, no banner, no pull to refresh while it runs")
    func loading() {
        let screen = SecretsScreen(state: SecretsState(), isBusy: true, format: usUTC)
        #expect(screen.title == "Secrets")
        #expect(screen.showsProgress)
        #expect(screen.progressLabel == "Loading your secrets")
        #expect(screen.rows.isEmpty)
        #expect(screen.emptyMessage == nil)
        #expect(screen.usage == nil)
        #expect(screen.banner == nil)
        #expect(screen.unlock == nil)
        #expect(screen.composer == nil)
        #expect(!screen.allowsRefresh)
    }

    @Test("a reload keeps the list on screen instead of the spinner")
    func reloading() {
        let screen = SecretsScreen(state: Self.state(.loading), isBusy: true, format: usUTC)
        #expect(!screen.showsProgress)
        #expect(screen.rows.count == 2)
        #expect(screen.rows.allSatisfy { !$0.toggle.isEnabled && !$0.delete.isEnabled })
    }

    @Test("empty: the empty message, the add form, no usage")
    func empty() throws {
        let screen = SecretsScreen(state: Self.state(.idle, secrets: []), format: usUTC)
        #expect(!screen.showsProgress)
        #expect(screen.rows.isEmpty)
        #expect(
            screen.emptyMessage
                == "No secrets yet. What you add here is kept sealed in your vault, readable only by you.")
        #expect(screen.usage == nil)
        #expect(screen.banner == nil)
        let composer = try #require(screen.composer)
        #expect(composer.title == "Add a Secret")
        #expect(
            composer.save
                == ScreenAction(
                    .add, title: "Save", isEnabled: false, accessibilityHint: "Stores the value, sealed, in your vault."
                ))
        #expect(screen.allowsRefresh)
    }

    @Test("list: rows sorted by name with version, size and update time; Show and Delete; usage against the limits")
    func list() throws {
        let screen = SecretsScreen(state: Self.state(.idle), format: usUTC)
        #expect(screen.emptyMessage == nil)
        #expect(screen.rows.map(\.name) == ["bank-pin", "wifi"])
        let pin = screen.rows[0]
        #expect(pin.detail == "Version 1 · 1 byte")
        #expect(plainSpaces(pin.updated) == "Updated Nov 25, 2026 at 1:05 PM")
        #expect(pin.status == nil)
        #expect(pin.value == nil)
        #expect(
            pin.toggle
                == ScreenAction(
                    .reveal(name: "bank-pin"), title: "Show", role: .secondary,
                    accessibilityHint: "Shows the value. It may ask for your vault password."))
        #expect(
            pin.delete
                == ScreenAction(
                    .delete(name: "bank-pin"), title: "Delete", role: .destructive,
                    accessibilityHint: "Deletes the secret from your vault."))
        #expect(plainSpaces(pin.accessibilityLabel) == "bank-pin, Version 1 · 1 byte, Updated Nov 25, 2026 at 1:05 PM")
        #expect(pin.id == "bank-pin")
        let wifi = screen.rows[1]
        #expect(wifi.detail == "Version 3 · 1,024 bytes")
        #expect(plainSpaces(wifi.updated) == "Updated Nov 25, 2026 at 12:05 PM")
        #expect(screen.usage == "2 of 256 secrets · 1,025 of 1,048,576 bytes")
        #expect(screen.banner == nil)
        #expect(screen.unlock == nil)
        #expect(screen.allowsRefresh)
        #expect(!screen.showsProgress)
    }

    @Test("usage without the vault's limits counts what is there")
    func usageWithoutLimits() {
        #expect(SecretsScreen.usage([sampleSecret("a", size: 1)], limits: nil, format: usUTC) == "1 secret · 1 byte")
        #expect(SecretsScreen.usage([], limits: .standard, format: usUTC) == nil)
    }

    @Test("revealed: the value only in the row that asked, with Hide; never in a description")
    func revealed() throws {
        let revealed = RevealedSecret(
            name: "bank-pin", value: SecretBytes(utf8: "2468"), version: 1, updatedAt: novemberAfternoonMilliseconds)
        let screen = SecretsScreen(state: Self.state(.revealed(revealed)), format: usUTC)
        let pin = screen.rows[0]
        let value = try #require(pin.value)
        #expect(value.text == "2468")
        #expect(value.label == "Value")
        #expect(pin.toggle == ScreenAction(.hide, title: "Hide", role: .secondary))
        #expect(screen.rows[1].value == nil, "only the row that asked")
        #expect(screen.rows[1].toggle.kind == .reveal(name: "wifi"))
        #expect(!pin.accessibilityLabel.contains("2468"))
        var dumped = ""
        dump(screen, to: &dumped)
        for text in [String(describing: screen), String(reflecting: screen), dumped] {
            #expect(!shows("2468", in: text))
        }
        #expect(screen.banner == nil)

        let binary = RevealedSecret(
            name: "bank-pin", value: SecretBytes(Data([0xFF, 0x00, 0x01])), version: 1,
            updatedAt: novemberAfternoonMilliseconds)
        let binaryValue = try #require(SecretsScreen(state: Self.state(.revealed(binary)), format: usUTC).rows[0].value)
        #expect(binaryValue.label == "Value (Base64)")
        #expect(binaryValue.text == "/wAB")
    }

    @Test("reading, saving and deleting mark their row and disable every button")
    func inProgress() throws {
        let cases: [(SecretsState.Activity, StatusBadge)] = [
            (.revealing(name: "bank-pin"), StatusBadge(symbolName: "ellipsis", tone: .busy, text: "Reading…")),
            (
                .saving(name: "bank-pin"),
                StatusBadge(symbolName: "arrow.triangle.2.circlepath", tone: .busy, text: "Saving…")
            ),
            (.deleting(name: "bank-pin"), StatusBadge(symbolName: "trash", tone: .busy, text: "Deleting…")),
        ]
        for (activity, badge) in cases {
            let screen = SecretsScreen(
                state: Self.state(activity), isBusy: true, draft: .init(name: "bank-pin", valueByteCount: 4),
                format: usUTC)
            #expect(screen.rows[0].status == badge)
            #expect(screen.rows[0].accessibilityLabel.hasSuffix(", \(badge.text)"))
            #expect(screen.rows[1].status == nil)
            #expect(screen.rows.allSatisfy { !$0.toggle.isEnabled && !$0.delete.isEnabled })
            #expect(screen.composer?.save.isEnabled == false)
            #expect(!screen.allowsRefresh)
        }
        let saving = SecretsScreen(state: Self.state(.saving(name: "door")), isBusy: true, format: usUTC)
        #expect(saving.composer?.progress == "Saving…")
        #expect(SecretsScreen(state: Self.state(.idle), format: usUTC).composer?.progress == nil)
    }

    @Test("locked until vault authentication: a caution banner, the row marked, the password step")
    func locked() throws {
        let screen = SecretsScreen(state: Self.state(.locked(name: "bank-pin")), format: usUTC)
        let banner = try #require(screen.banner)
        #expect(banner.tone == .caution)
        #expect(
            banner.message
                == "“bank-pin” is locked: showing a value needs a recent unlock of your vault on this device.")
        #expect(banner.action == nil)
        #expect(screen.rows[0].status == StatusBadge(symbolName: "lock.fill", tone: .caution, text: "Locked"))
        #expect(screen.rows[0].value == nil)
        let unlock = try #require(screen.unlock)
        #expect(unlock.name == "bank-pin")
        #expect(unlock.prompt == "Enter your vault password to show “bank-pin”.")
        #expect(unlock.passwordLabel == "Vault Password")
        #expect(unlock.submit == ScreenAction(.unlock, title: "Unlock"))
        #expect(unlock.cancel == ScreenAction(.hide, title: "Cancel", role: .secondary))
        #expect(unlock.progress == nil)
        #expect(unlock.error == nil)
    }

    @Test("the password step follows the vault unlock's state")
    func unlockSteps() throws {
        let locked = Self.state(.locked(name: "bank-pin"))
        let checking = try #require(
            SecretsScreen(state: locked, unlock: .authenticating(.verifyingServer), format: usUTC).unlock)
        #expect(checking.progress == "Checking the server…")
        #expect(!checking.submit.isEnabled)
        #expect(!checking.cancel.isEnabled)
        let sending = SecretsScreen(state: locked, unlock: .authenticating(.sendingPassword), format: usUTC)
        #expect(sending.unlock?.progress == "Unlocking…")
        #expect(sending.rows.allSatisfy { !$0.toggle.isEnabled }, "nothing else while unlocking")
        #expect(!sending.allowsRefresh)
        let failure = VaultAuthFailure(message: "Wrong password.", retryable: false, code: "invalid_credentials")
        let failed = try #require(SecretsScreen(state: locked, unlock: .failed(failure), format: usUTC).unlock)
        #expect(failed.error == "Wrong password.")
        #expect(failed.submit.isEnabled, "another password can be tried")
        #expect(failed.progress == nil)
    }

    @Test("an error with retry: the message, Try Again, the list still shown")
    func errorWithRetry() throws {
        let failure = SecretsFailure(
            operation: .load, message: "Your secrets could not be loaded: your vault cannot be reached.",
            retryable: true, code: "vault_unavailable")
        let screen = SecretsScreen(state: Self.state(.failed(failure)), format: usUTC)
        let banner = try #require(screen.banner)
        #expect(banner.tone == .critical)
        #expect(banner.message == failure.message)
        #expect(banner.action == ScreenAction(.retry, title: "Try Again"))
        #expect(screen.rows.count == 2)
        #expect(screen.unlock == nil)
        #expect(screen.allowsRefresh)

        let never = SecretsScreen(state: Self.state(.failed(failure), secrets: nil), format: usUTC)
        #expect(!never.showsProgress, "the error replaces the spinner")
        #expect(never.composer == nil)
        #expect(never.emptyMessage == nil, "not listed is not empty")
        #expect(never.banner?.action?.kind == .retry)
    }

    @Test("an error a retry cannot fix offers Reload")
    func errorWithReload() {
        let failure = SecretsFailure(
            operation: .delete(name: "wifi"), message: "changed elsewhere", retryable: false, code: "version_conflict")
        let screen = SecretsScreen(state: Self.state(.failed(failure)), format: usUTC)
        #expect(screen.banner?.action == ScreenAction(.reload, title: "Reload", role: .secondary))
        #expect(
            SecretsScreen(state: Self.state(.failed(failure)), isBusy: true, format: usUTC).banner?.action?.isEnabled
                == false)
    }

    @Test("the add form checks the name and size, and says when it stores a new version")
    func composer() throws {
        let state = Self.state(.idle)
        let valid = try #require(
            SecretsScreen(state: state, draft: .init(name: "door", valueByteCount: 4), format: usUTC).composer)
        #expect(valid.save.isEnabled)
        #expect(valid.save.title == "Save")
        #expect(valid.nameError == nil)
        #expect(valid.valueError == nil)
        #expect(valid.note == nil)
        #expect(valid.nameLabel == "Name")
        #expect(valid.valueLabel == "Value")

        let existing = try #require(
            SecretsScreen(state: state, draft: .init(name: "wifi", valueByteCount: 4), format: usUTC).composer)
        #expect(existing.save.title == "Save New Version")
        #expect(existing.note == "“wifi” exists: saving stores version 4.")

        let badName = try #require(
            SecretsScreen(state: state, draft: .init(name: "door ", valueByteCount: 4), format: usUTC).composer)
        #expect(
            badName.nameError
                == "A name is 1 to 128 bytes, with no control characters and no space at either end.")
        #expect(!badName.save.isEnabled)

        let tooLarge = try #require(
            SecretsScreen(state: state, draft: .init(name: "door", valueByteCount: 16_385), format: usUTC).composer)
        #expect(tooLarge.valueError == "A value is at most 16,384 bytes.")
        #expect(!tooLarge.save.isEnabled)

        let noValue = try #require(
            SecretsScreen(state: state, draft: .init(name: "door", valueByteCount: 0), format: usUTC).composer)
        #expect(!noValue.save.isEnabled)
        #expect(noValue.valueError == nil)
        let noName = try #require(SecretsScreen(state: state, draft: .init(valueByteCount: 3), format: usUTC).composer)
        #expect(!noName.save.isEnabled)
        #expect(noName.nameError == nil, "an empty field is not an error yet")
    }
}
