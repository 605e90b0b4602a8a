// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore
import VettIDMessaging

/// The secrets screen over a ``SecretsStateMachine``: list, show one value, add, delete, retry, and the vault
/// password step when the vault wants a fresh authentication before it shows a value.
///
/// ```swift
/// let model = SecretsViewModel(service: vettid.vault)
/// await model.load()                 // .loading → .idle (model.state.secrets sorted by name)
/// await model.reveal("bank-pin")     // .revealing → .revealed(value), or .locked(name:) without a recent unlock
/// model.unlock.password = "…"
/// await model.submitUnlock()         // the vault authentication (VaultAuthViewModel), then the value is read again
/// model.draftName = "door"; model.draftValue = "1234"
/// await model.save()                 // .saving → .idle with "door" in the list; the form is cleared
/// ```
///
/// The unlock step is a ``VaultAuthViewModel``: its password field, its checks (the password is sent only after the
/// server showed the stored LAT) and its failures are the vault unlock screen's.
@Observable
@MainActor
public final class SecretsViewModel {
    /// The add form's name field.
    public var draftName = ""
    /// The add form's value field (cleared once stored).
    public var draftValue = ""
    /// The vault password step shown while a value is locked (``SecretsState/Activity/locked(name:)``).
    public let unlock: VaultAuthViewModel
    /// The screen logic and state.
    public private(set) var machine = SecretsStateMachine()

    @ObservationIgnored private let source: any SecretsSource

    /// Creates the view model (state ``SecretsState/Activity/loading`` until ``load()``).
    /// - Parameters:
    ///   - source: Where the secrets are (`vettid.vault.secrets`, or a fake in tests).
    ///   - unlock: The vault password step.
    public init(source: any SecretsSource, unlock: VaultAuthViewModel) {
        self.source = source
        self.unlock = unlock
    }

    /// The view model of a `VaultService`'s secrets (`service.secrets`), unlocking with the service's
    /// `VaultAuthenticator`.
    public convenience init(service: VaultService) {
        self.init(source: service.secrets, unlock: VaultAuthViewModel(actions: .live(service)))
    }

    /// The screen's state.
    public var state: SecretsState { machine.state }

    /// Whether a request or the unlock step runs.
    public var isBusy: Bool { machine.isBusy || isUnlocking }

    /// The screen's presentation.
    public func screen(format: PresentationFormat = .current) -> SecretsScreen {
        SecretsScreen(
            state: machine.state, isBusy: machine.isBusy, unlock: unlock.state,
            draft: SecretsScreen.Draft(name: draftName, valueByteCount: draftValue.utf8.count), format: format)
    }

    /// Lists the secrets (when the screen appears, on pull to refresh, to reload after an error).
    public func load() async {
        await perform(machine.load())
    }

    /// Shows the value of `name` (the vault may ask for a fresh authentication first: the screen is then locked).
    public func reveal(_ name: String) async {
        await perform(machine.revealRequested(name))
    }

    /// Hides the value shown, or gives up unlocking.
    public func hide() {
        guard !isUnlocking else { return }
        if case .locked = machine.state.activity { unlock.lock() }
        _ = machine.hide()
    }

    /// Stores the add form's value under its name (a new secret, or the next version of a listed one); the form is
    /// cleared once it is stored.
    public func save() async {
        await perform(machine.saveRequested(name: draftName, value: SecretBytes(utf8: draftValue)))
    }

    /// Deletes `name`.
    public func delete(_ name: String) async {
        await perform(machine.deleteRequested(name))
    }

    /// Sends the failed request again after a retryable failure (nothing otherwise).
    public func retry() async {
        await perform(machine.retry())
    }

    /// Authenticates to the vault with ``unlock``'s password field; once it succeeds, reads the locked value again.
    public func submitUnlock() async {
        guard case .locked = machine.state.activity, !isUnlocking else { return }
        await unlock.submit()
        guard case .authenticated = unlock.state else { return }
        // The vault keeps the authentication; the form goes back to its empty password field for the next time.
        unlock.lock()
        await perform(machine.unlocked())
    }

    private var isUnlocking: Bool {
        switch unlock.state {
        case .authenticating, .authenticated: true
        case .idle, .failed: false
        }
    }

    private func perform(_ first: SecretsStateMachine.Effect) async {
        var effect = first
        while effect != .none {
            switch effect {
            case .none:
                return
            case .load:
                do throws(VaultMessageError) {
                    effect = machine.loaded(try await source.list())
                } catch {
                    effect = machine.failed(error, operation: .load)
                }
            case .reveal(let name):
                do throws(VaultMessageError) {
                    effect = machine.revealed(try await source.get(name: name))
                } catch {
                    effect = machine.failed(error, operation: .reveal(name: name))
                    // Locked: the password step starts from an empty field.
                    if case .locked = machine.state.activity { unlock.lock() }
                }
            case .save(let name, let value, let expectedVersion):
                do throws(VaultMessageError) {
                    let summary = try await source.put(name: name, value: value.data, expectedVersion: expectedVersion)
                    effect = machine.saved(summary)
                    if draftName == name {
                        draftName = ""
                        draftValue = ""
                    }
                } catch {
                    effect = machine.failed(error, operation: .save(name: name))
                }
            case .delete(let name, let expectedVersion):
                do throws(VaultMessageError) {
                    _ = try await source.delete(name: name, expectedVersion: expectedVersion)
                    effect = machine.deleted(name)
                } catch {
                    effect = machine.failed(error, operation: .delete(name: name))
                }
            }
        }
    }
}
