// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore

/// The messaging setup screen over a ``NatsSetupStateMachine``: account → token → connection → status.
///
/// ```swift
/// let model = NatsSetupViewModel(actions: .live(service: vault, manager: natsManager))
/// await model.start()   // .creatingAccount → .generatingToken → .connecting → .connected(status) / .error(message:)
/// ```
@Observable
@MainActor
public final class NatsSetupViewModel {
    /// What the view model asks of the SDK; ``live(service:manager:)`` uses a `VaultService` and a
    /// ``NatsConnectionManager``, tests pass closures.
    public struct Actions: Sendable {
        /// Creates the NATS account (throws `APIError` `account_exists` when it exists).
        public var createAccount: @MainActor @Sendable () async throws -> Void
        /// Issues an app token.
        public var issueToken: @MainActor @Sendable () async throws -> NatsCredentials
        /// Connects with the credentials; returns the resulting connection state.
        public var connect: @MainActor @Sendable (NatsCredentials) async -> NatsConnectionState
        /// Reads the NATS status.
        public var fetchStatus: @MainActor @Sendable () async throws -> NatsStatus

        /// Creates actions from closures.
        public init(
            createAccount: @escaping @MainActor @Sendable () async throws -> Void,
            issueToken: @escaping @MainActor @Sendable () async throws -> NatsCredentials,
            connect: @escaping @MainActor @Sendable (NatsCredentials) async -> NatsConnectionState,
            fetchStatus: @escaping @MainActor @Sendable () async throws -> NatsStatus
        ) {
            self.createAccount = createAccount
            self.issueToken = issueToken
            self.connect = connect
            self.fetchStatus = fetchStatus
        }

        /// Actions performed by a `VaultService` and a ``NatsConnectionManager``.
        public static func live(service: VaultService, manager: NatsConnectionManager) -> Actions {
            Actions(
                createAccount: { _ = try await service.createNatsAccount() },
                issueToken: { try await service.issueCredentials() },
                connect: { credentials in
                    await manager.connect(using: credentials)
                    return manager.state
                },
                fetchStatus: { try await service.getNatsStatus() }
            )
        }
    }

    /// The screen logic and state.
    public private(set) var machine = NatsSetupStateMachine()
    @ObservationIgnored private let actions: Actions

    /// Creates the view model (``NatsSetupState/initial``).
    public init(actions: Actions) {
        self.actions = actions
    }

    /// The screen's state.
    public var state: NatsSetupState { machine.state }

    /// Runs the setup.
    public func start() async {
        await perform(machine.start())
    }

    /// Runs the setup again after an error.
    public func retry() async {
        await perform(machine.retry())
    }

    /// Shows what a background token refresh reported: ``NatsSetupState/signInRequired`` once the member session
    /// has ended. Feed it the `outcomes` of a `NatsTokenRefreshTask` (`VettIDClient`).
    public func backgroundRefreshed(_ outcome: NatsRefreshOutcome) async {
        await perform(machine.backgroundRefreshed(outcome))
    }

    private func perform(_ first: NatsSetupStateMachine.Effect) async {
        var effect = first
        while effect != .none {
            switch effect {
            case .none:
                return
            case .createAccount:
                do {
                    try await actions.createAccount()
                    effect = machine.accountCreated()
                } catch {
                    effect = machine.failed(APIError.from(error))
                }
            case .generateToken:
                do {
                    effect = machine.tokenIssued(try await actions.issueToken())
                } catch {
                    effect = machine.failed(APIError.from(error))
                }
            case .connect(let credentials):
                switch await actions.connect(credentials) {
                case .connected:
                    effect = machine.connected()
                case .error(let message):
                    effect = machine.connectionFailed(message)
                case .connecting, .disconnected:
                    effect = machine.connectionFailed("the connection did not complete")
                }
            case .fetchStatus:
                do {
                    effect = machine.statusReceived(try await actions.fetchStatus())
                } catch {
                    effect = machine.failed(APIError.from(error))
                }
            }
        }
    }
}
