// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels
    #if canImport(UIKit)
        import UIKit
    #endif

    /// The member's secrets, kept sealed in the vault: the list (name, version, size, last update), one value
    /// shown at a time, the vault password step when the vault wants a fresh unlock first, the add form, errors
    /// with their retry. It lists the secrets when it appears and hides a shown value when it disappears.
    public struct SecretsView: View {
        @Bindable var model: SecretsViewModel

        /// Creates the screen.
        public init(model: SecretsViewModel) {
            self._model = Bindable(model)
        }

        public var body: some View {
            let screen = model.screen()
            List {
                if let banner = screen.banner {
                    Section {
                        BannerView(banner, perform: perform)
                    }
                }
                if let unlock = screen.unlock {
                    Section {
                        SecretsUnlockForm(unlock: unlock, password: Bindable(model.unlock).password, perform: perform)
                    }
                }
                if screen.showsProgress {
                    ProgressView()
                        .accessibilityLabel(Text(screen.progressLabel))
                }
                if let emptyMessage = screen.emptyMessage {
                    Section {
                        Text(emptyMessage)
                            .foregroundStyle(.secondary)
                            .fixedSize(horizontal: false, vertical: true)
                    }
                }
                if !screen.rows.isEmpty {
                    Section {
                        ForEach(screen.rows) { row in
                            SecretRowView(row: row, perform: perform)
                        }
                        if let usage = screen.usage {
                            Text(usage)
                                .font(.footnote)
                                .foregroundStyle(.secondary)
                        }
                    }
                }
                if let composer = screen.composer {
                    Section {
                        SecretComposerForm(
                            composer: composer, name: $model.draftName, value: $model.draftValue, perform: perform)
                    }
                }
            }
            .navigationTitle(screen.title)
            .refreshable {
                if screen.allowsRefresh { await model.load() }
            }
            .task {
                await model.load()
            }
            .onDisappear {
                model.hide()
            }
        }

        private func perform(_ kind: SecretsScreen.ActionKind) {
            switch kind {
            case .add: Task { await model.save() }
            case .reveal(let name): Task { await model.reveal(name) }
            case .hide: model.hide()
            case .delete(let name): Task { await model.delete(name) }
            case .retry: Task { await model.retry() }
            case .reload: Task { await model.load() }
            case .unlock: Task { await model.submitUnlock() }
            }
        }
    }

    /// One secret: its summary, its status, the value when shown, Show/Hide and Delete.
    struct SecretRowView: View {
        let row: SecretsScreen.Row
        let perform: @MainActor (SecretsScreen.ActionKind) -> Void

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                VStack(alignment: .leading, spacing: 2) {
                    Text(row.name)
                        .font(.headline)
                    Text(row.detail)
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                    Text(row.updated)
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                    if let status = row.status {
                        MessageLine(status.text, tone: status.tone)
                    }
                }
                .accessibilityElement(children: .ignore)
                .accessibilityLabel(Text(row.accessibilityLabel))
                if let value = row.value {
                    VStack(alignment: .leading, spacing: 2) {
                        Text(value.label)
                            .font(.caption)
                            .foregroundStyle(.secondary)
                        Text(verbatim: value.text)
                            .font(.body.monospaced())
                            .privacySensitive()
                    }
                    .accessibilityElement(children: .combine)
                }
                HStack {
                    ScreenActionButton(row.toggle, perform: perform)
                    ScreenActionButton(row.delete, perform: perform)
                }
            }
        }
    }

    /// The vault password step: the prompt, the password field (Password AutoFill), the progress or the failure,
    /// Unlock and Cancel.
    struct SecretsUnlockForm: View {
        let unlock: SecretsScreen.Unlock
        @Binding var password: String
        let perform: @MainActor (SecretsScreen.ActionKind) -> Void

        var body: some View {
            VStack(alignment: .leading, spacing: 12) {
                Text(unlock.prompt)
                    .fixedSize(horizontal: false, vertical: true)
                SecureField(unlock.passwordLabel, text: $password)
                    #if canImport(UIKit)
                        .textContentType(.password)
                    #endif
                    .onSubmit {
                        if unlock.submit.isEnabled { perform(.unlock) }
                    }
                if let progress = unlock.progress {
                    MessageLine(progress, tone: .busy)
                }
                if let error = unlock.error {
                    MessageLine(error, tone: .critical)
                }
                ScreenActionButton(unlock.submit, perform: perform)
                ScreenActionButton(unlock.cancel, perform: perform)
            }
        }
    }

    /// The add form: name, value (a secure field), what is wrong with either, and Save.
    struct SecretComposerForm: View {
        let composer: SecretsScreen.Composer
        @Binding var name: String
        @Binding var value: String
        let perform: @MainActor (SecretsScreen.ActionKind) -> Void

        var body: some View {
            VStack(alignment: .leading, spacing: 12) {
                Text(composer.title)
                    .font(.headline)
                    .accessibilityAddTraits(.isHeader)
                TextField(composer.nameLabel, text: $name)
                    .autocorrectionDisabled()
                    #if canImport(UIKit)
                        .textInputAutocapitalization(.never)
                    #endif
                if let nameError = composer.nameError {
                    MessageLine(nameError, tone: .critical)
                }
                SecureField(composer.valueLabel, text: $value)
                if let valueError = composer.valueError {
                    MessageLine(valueError, tone: .critical)
                }
                if let note = composer.note {
                    MessageLine(note, tone: .neutral)
                }
                if let progress = composer.progress {
                    MessageLine(progress, tone: .busy)
                }
                ScreenActionButton(composer.save, perform: perform)
            }
        }
    }
#endif
