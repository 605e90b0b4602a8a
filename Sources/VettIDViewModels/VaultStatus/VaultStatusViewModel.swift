// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore

/// The vault status screen over a ``VaultStatusStateMachine``: status, sync, retry.
///
/// ```swift
/// let model = VaultStatusViewModel(actions: .live(vaultService))
/// await model.refresh()   // .loading → .active(details) / .notEnrolled / .error(message:retryable:) …
/// await model.sync()      // .loading → (sync, then status) → .active(details); model.lastSync has the new keys
/// ```
@Observable
@MainActor
public final class VaultStatusViewModel {
    /// What the view model asks of the SDK; ``live(_:)`` uses a `VaultService`, tests pass closures.
    public struct Actions: Sendable {
        /// Reads the status; throws `invalid_token` or `reauthentication_required` when the session must be renewed.
        public var fetchStatus: @MainActor @Sendable () async throws -> VaultStatus
        /// Syncs the vault (storing new keys); the same errors.
        public var sync: @MainActor @Sendable () async throws -> VaultSyncResult
        /// Renews the vault session (e.g. asks for the password and authenticates).
        public var reauthenticate: @MainActor @Sendable () async throws -> Void

        /// Creates actions from closures.
        public init(
            fetchStatus: @escaping @MainActor @Sendable () async throws -> VaultStatus,
            sync: @escaping @MainActor @Sendable () async throws -> VaultSyncResult,
            reauthenticate: @escaping @MainActor @Sendable () async throws -> Void
        ) {
            self.fetchStatus = fetchStatus
            self.sync = sync
            self.reauthenticate = reauthenticate
        }

        /// Actions performed by a `VaultService`: status and sync never re-authenticate by themselves (the state
        /// machine asks once), and re-authentication runs the service's `VaultReauthenticator`.
        public static func live(_ service: VaultService) -> Actions {
            Actions(
                fetchStatus: { try await service.getVaultStatus(reauthenticate: false) },
                sync: { try await service.syncVault(reauthenticate: false) },
                reauthenticate: { _ = try await service.reauthenticate() }
            )
        }
    }

    /// The screen logic and state.
    public private(set) var machine = VaultStatusStateMachine()
    /// The last successful sync of this screen.
    public private(set) var lastSync: VaultSyncResult?

    @ObservationIgnored private let actions: Actions

    /// Creates the view model (state ``VaultState/loading`` until ``refresh()``).
    public init(actions: Actions) {
        self.actions = actions
    }

    /// The screen's state.
    public var state: VaultState { machine.state }

    /// The screen's presentation.
    public func screen(format: PresentationFormat = .current) -> VaultStatusScreen {
        VaultStatusScreen(state: machine.state, isBusy: machine.isBusy, format: format)
    }

    /// The home screen card's presentation.
    public var card: VaultStatusCardContent { VaultStatusCardContent(state: machine.state) }

    /// Reads the status.
    public func refresh() async {
        await perform(machine.refresh())
    }

    /// Syncs the vault, then reads the status.
    public func sync() async {
        await perform(machine.sync())
    }

    /// Repeats the failed action after a retryable error (nothing otherwise).
    public func retry() async {
        await perform(machine.retry())
    }

    /// Shows what a background refresh reported: ``VaultState/signInRequired`` once the member session has
    /// ended. Feed it `VaultRefreshTask.outcomes`.
    public func backgroundRefreshed(_ outcome: VaultRefreshOutcome) async {
        await perform(machine.backgroundRefreshed(outcome))
    }

    private func perform(_ first: VaultStatusStateMachine.Effect) async {
        var effect = first
        while effect != .none {
            switch effect {
            case .none:
                return
            case .fetchStatus:
                do {
                    effect = machine.statusReceived(try await actions.fetchStatus())
                } catch {
                    effect = machine.failed(APIError.from(error))
                }
            case .sync:
                do {
                    let result = try await actions.sync()
                    lastSync = result
                    effect = machine.syncCompleted(result)
                } catch {
                    effect = machine.failed(APIError.from(error))
                }
            case .reauthenticate:
                do {
                    try await actions.reauthenticate()
                    effect = machine.reauthenticated()
                } catch {
                    effect = machine.reauthenticationFailed(APIError.from(error))
                }
            }
        }
    }
}
