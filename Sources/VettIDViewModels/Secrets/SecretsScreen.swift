// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore
import VettIDMessaging

/// Everything the secrets screen shows, computed from a ``SecretsState``, the unlock step's ``VaultAuthState`` and
/// the add form's draft; the view lays it out and maps each action to the view model.
///
/// ```swift
/// let screen = model.screen(format: .current)
/// // screen.rows[0].name == "bank-pin", screen.rows[0].detail == "Version 2 · 4 bytes"
/// // locked: screen.banner?.tone == .caution, screen.unlock?.submit.kind == .unlock
/// ```
///
/// A value appears only in the row that asked for it (``Row/value``), as ``SecretBytes``, which no description
/// shows; nothing else here holds one.
public struct SecretsScreen: Sendable, Hashable {
    /// What the screen's buttons do.
    public enum ActionKind: Sendable, Hashable {
        /// Store the add form's value (``SecretsViewModel/save()``).
        case add
        /// Show the value of `name` (``SecretsViewModel/reveal(_:)``).
        case reveal(name: String)
        /// Hide the value shown, or give up unlocking (``SecretsViewModel/hide()``).
        case hide
        /// Delete `name` (``SecretsViewModel/delete(_:)``).
        case delete(name: String)
        /// Send the failed request again (``SecretsViewModel/retry()``).
        case retry
        /// Read the list again (``SecretsViewModel/load()``).
        case reload
        /// Authenticate to the vault with the password field, then show the locked value
        /// (``SecretsViewModel/submitUnlock()``).
        case unlock
    }

    /// What the add form holds, without its value: the name and the value's size.
    public struct Draft: Sendable, Hashable {
        /// The name field.
        public var name: String
        /// The value field's size in UTF-8 bytes.
        public var valueByteCount: Int

        /// Creates a draft.
        public init(name: String = "", valueByteCount: Int = 0) {
            self.name = name
            self.valueByteCount = valueByteCount
        }
    }

    /// One secret of the list.
    public struct Row: Sendable, Hashable, Identifiable {
        /// The value shown in a row, once the member asked for it.
        public struct Value: Sendable, Hashable {
            /// The bytes (never in a description).
            public let bytes: SecretBytes
            /// The label above the value: "Value", or "Value (Base64)" for bytes that are not text.
            public let label: String

            /// What the row shows: the text, or the Base64 of a binary value.
            public var text: String { bytes.utf8Text ?? bytes.data.base64EncodedString() }
        }

        /// The secret's name.
        public let name: String
        /// "Version 2 · 4 bytes".
        public let detail: String
        /// "Updated Nov 25, 2026 at 1:05 PM".
        public let updated: String
        /// What is happening to this secret (reading, locked, saving, deleting), if anything.
        public let status: StatusBadge?
        /// The value, in the one row that asked for it.
        public let value: Value?
        /// Show the value, or hide it when shown.
        public let toggle: ScreenAction<ActionKind>
        /// Delete the secret.
        public let delete: ScreenAction<ActionKind>

        /// The name identifies a row.
        public var id: String { name }
        /// What VoiceOver reads for the row's summary (never the value).
        public var accessibilityLabel: String {
            [name, detail, updated, status?.text].compactMap { $0 }.joined(separator: ", ")
        }
    }

    /// The vault password step, when a value is locked until this device authenticates to the vault.
    public struct Unlock: Sendable, Hashable {
        /// The secret that is waiting.
        public let name: String
        /// What to do.
        public let prompt: String
        /// The password field's label (also its accessibility label).
        public let passwordLabel: String
        /// Unlock (disabled while authenticating).
        public let submit: ScreenAction<ActionKind>
        /// Give up and go back to the list.
        public let cancel: ScreenAction<ActionKind>
        /// The step running ("Checking the server…", "Unlocking…"), if any.
        public let progress: String?
        /// Why the last attempt failed, if it did.
        public let error: String?
    }

    /// The form that adds a secret or stores a new version of one.
    public struct Composer: Sendable, Hashable {
        /// The section's title.
        public let title: String
        /// The name field's label.
        public let nameLabel: String
        /// The value field's label (the field hides what is typed).
        public let valueLabel: String
        /// What is wrong with the name, if anything.
        public let nameError: String?
        /// What is wrong with the value, if anything.
        public let valueError: String?
        /// A notice: the name exists, so saving stores its next version.
        public let note: String?
        /// Save (enabled once the name and value are valid and nothing runs).
        public let save: ScreenAction<ActionKind>
        /// "Saving…" while the value is being stored.
        public let progress: String?
    }

    /// The navigation title.
    public let title: String
    /// Whether a spinner replaces the list (loading with nothing listed yet).
    public let showsProgress: Bool
    /// What the spinner says, for VoiceOver.
    public let progressLabel: String
    /// The secrets, sorted by name.
    public let rows: [Row]
    /// Shown instead of rows when the member keeps no secret.
    public let emptyMessage: String?
    /// How much of the vault's room the secrets take ("2 of 256 secrets · 10 of 1,048,576 bytes").
    public let usage: String?
    /// A failure with its retry, or the notice that a value is locked.
    public let banner: BannerContent<ActionKind>?
    /// The vault password step, while a value is locked.
    public let unlock: Unlock?
    /// The add form, once the list is known.
    public let composer: Composer?
    /// Whether pull to refresh is offered (not while a request runs).
    public let allowsRefresh: Bool

    /// Computes the screen.
    /// - Parameters:
    ///   - state: The view model's state.
    ///   - isBusy: Whether a request runs (buttons are disabled meanwhile).
    ///   - unlock: The unlock step's state (used while a value is locked).
    ///   - draft: The add form's name and value size.
    ///   - format: How dates and numbers read.
    public init(
        state: SecretsState, isBusy: Bool = false, unlock: VaultAuthState = .idle, draft: Draft = Draft(),
        format: PresentationFormat = .current
    ) {
        title = "Secrets"
        progressLabel = "Loading your secrets"
        let unlocking: Bool
        switch unlock {
        case .authenticating, .authenticated: unlocking = true
        case .idle, .failed: unlocking = false
        }
        let enabled = !isBusy && !unlocking
        showsProgress = state.activity == .loading && state.secrets == nil
        allowsRefresh = enabled
        rows = (state.secrets ?? []).map {
            Self.row(for: $0, activity: state.activity, enabled: enabled, format: format)
        }
        emptyMessage =
            state.isEmpty
            ? "No secrets yet. What you add here is kept sealed in your vault, readable only by you." : nil
        usage = Self.usage(state.secrets, limits: state.limits, format: format)

        switch state.activity {
        case .failed(let failure):
            banner = BannerContent(
                tone: .critical, message: failure.message,
                action: failure.retryable
                    ? ScreenAction(.retry, title: "Try Again", isEnabled: enabled)
                    : ScreenAction(.reload, title: "Reload", isEnabled: enabled, role: .secondary))
            self.unlock = nil
        case .locked(let name):
            banner = BannerContent(
                tone: .caution,
                message: "“\(name)” is locked: showing a value needs a recent unlock of your vault on this device.")
            self.unlock = Self.unlock(name: name, state: unlock, enabled: enabled)
        default:
            banner = nil
            self.unlock = nil
        }

        if let secrets = state.secrets {
            composer = Self.composer(
                draft: draft, secrets: secrets, limits: state.limits ?? .standard, activity: state.activity,
                enabled: enabled, format: format)
        } else {
            composer = nil
        }
    }

    // MARK: Parts

    static func row(
        for summary: SecretSummary, activity: SecretsState.Activity, enabled: Bool, format: PresentationFormat
    )
        -> Row
    {
        let name = summary.name
        var status: StatusBadge?
        var value: Row.Value?
        switch activity {
        case .revealing(name):
            status = StatusBadge(symbolName: "ellipsis", tone: .busy, text: "Reading…")
        case .revealed(let revealed) where revealed.name == name:
            value = Row.Value(
                bytes: revealed.value, label: revealed.value.utf8Text == nil ? "Value (Base64)" : "Value")
        case .locked(name):
            status = StatusBadge(symbolName: "lock.fill", tone: .caution, text: "Locked")
        case .saving(name):
            status = StatusBadge(symbolName: "arrow.triangle.2.circlepath", tone: .busy, text: "Saving…")
        case .deleting(name):
            status = StatusBadge(symbolName: "trash", tone: .busy, text: "Deleting…")
        default:
            break
        }
        let toggle =
            value == nil
            ? ScreenAction<ActionKind>(
                .reveal(name: name), title: "Show", isEnabled: enabled, role: .secondary,
                accessibilityHint: "Shows the value. It may ask for your vault password.")
            : ScreenAction<ActionKind>(.hide, title: "Hide", isEnabled: enabled, role: .secondary)
        return Row(
            name: name,
            detail:
                "Version \(format.count(Int(clamping: summary.version))) · \(byteCount(summary.size, format: format))",
            updated: "Updated \(format.dateTime(date(summary.updatedAt)))",
            status: status,
            value: value,
            toggle: toggle,
            delete: ScreenAction(
                .delete(name: name), title: "Delete", isEnabled: enabled, role: .destructive,
                accessibilityHint: "Deletes the secret from your vault."))
    }

    static func unlock(name: String, state: VaultAuthState, enabled: Bool) -> Unlock {
        var progress: String?
        var error: String?
        switch state {
        case .idle: break
        case .authenticating(.verifyingServer): progress = "Checking the server…"
        case .authenticating(.sendingPassword), .authenticated: progress = "Unlocking…"
        case .failed(let failure): error = failure.message
        }
        return Unlock(
            name: name,
            prompt: "Enter your vault password to show “\(name)”.",
            passwordLabel: "Vault Password",
            submit: ScreenAction(.unlock, title: "Unlock", isEnabled: enabled),
            cancel: ScreenAction(.hide, title: "Cancel", isEnabled: enabled, role: .secondary),
            progress: progress,
            error: error)
    }

    static func composer(
        draft: Draft, secrets: [SecretSummary], limits: VaultDataLimits, activity: SecretsState.Activity,
        enabled: Bool, format: PresentationFormat
    ) -> Composer {
        var nameError: String?
        if !draft.name.isEmpty {
            do throws(VaultMessageError) {
                try limits.checkSecretName(draft.name)
            } catch {
                nameError =
                    "A name is 1 to \(format.count(limits.maxNameBytes)) bytes, with no control characters and no "
                    + "space at either end."
            }
        }
        let valueError =
            draft.valueByteCount > limits.maxValueBytes
            ? "A value is at most \(byteCount(limits.maxValueBytes, format: format))." : nil
        let existing = secrets.first { $0.name == draft.name }
        let valid = !draft.name.isEmpty && nameError == nil && draft.valueByteCount > 0 && valueError == nil
        var progress: String?
        if case .saving = activity { progress = "Saving…" }
        return Composer(
            title: "Add a Secret",
            nameLabel: "Name",
            valueLabel: "Value",
            nameError: nameError,
            valueError: valueError,
            note: existing.map {
                "“\($0.name)” exists: saving stores version \(format.count(Int(clamping: $0.version) + 1))."
            },
            save: ScreenAction(
                .add, title: existing == nil ? "Save" : "Save New Version", isEnabled: enabled && valid,
                accessibilityHint: "Stores the value, sealed, in your vault."),
            progress: progress)
    }

    static func usage(_ secrets: [SecretSummary]?, limits: VaultDataLimits?, format: PresentationFormat) -> String? {
        guard let secrets, !secrets.isEmpty else { return nil }
        let bytes = secrets.reduce(0) { $0 + $1.size }
        guard let limits else {
            return "\(count(secrets.count, "secret", format: format)) · \(byteCount(bytes, format: format))"
        }
        return "\(format.count(secrets.count)) of \(format.count(limits.maxSecrets)) secrets · "
            + "\(format.count(bytes)) of \(format.count(limits.maxTotalBytes)) bytes"
    }

    /// "1 byte", "1,024 bytes".
    static func byteCount(_ bytes: Int, format: PresentationFormat) -> String {
        count(bytes, "byte", format: format)
    }

    /// "1 secret", "3 secrets".
    static func count(_ value: Int, _ noun: String, format: PresentationFormat) -> String {
        "\(format.count(value)) \(noun)\(value == 1 ? "" : "s")"
    }

    /// A vault timestamp (milliseconds since 1970) as a date.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
