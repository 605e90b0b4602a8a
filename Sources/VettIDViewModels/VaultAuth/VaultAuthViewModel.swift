// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore

/// The vault unlock screen: one password field over a ``VaultAuthStateMachine``.
///
/// ```swift
/// let model = VaultAuthViewModel(actions: .live(vaultService))
/// model.password = "…"
/// await model.submit()     // .authenticating(.verifyingServer) → (.sendingPassword) → .authenticated(userGUID:)
/// ```
@Observable
@MainActor
public final class VaultAuthViewModel {
    /// What the view model asks of the SDK; ``live(_:)`` uses a `VaultService`, tests pass closures.
    public struct Actions: Sendable {
        /// Asks for an action and checks its LAT (throws `lat_mismatch` on a difference).
        public var requestAction: @MainActor @Sendable () async throws -> VaultAction
        /// Sends the password for the action; returns the new session.
        public var execute: @MainActor @Sendable (VaultAction, String) async throws -> VaultSession

        /// Creates actions from closures.
        public init(
            requestAction: @escaping @MainActor @Sendable () async throws -> VaultAction,
            execute: @escaping @MainActor @Sendable (VaultAction, String) async throws -> VaultSession
        ) {
            self.requestAction = requestAction
            self.execute = execute
        }

        /// Actions performed by a `VaultService`'s `VaultAuthenticator`.
        public static func live(_ service: VaultService) -> Actions {
            let authenticator = service.authenticator()
            return Actions(
                requestAction: { try await authenticator.requestAction() },
                execute: { action, password in try await authenticator.execute(action, password: password) }
            )
        }
    }

    /// The password field.
    public var password = ""
    /// The screen logic and state.
    public private(set) var machine = VaultAuthStateMachine()
    /// The vault session after a successful unlock.
    public private(set) var session: VaultSession?

    @ObservationIgnored private let actions: Actions

    /// Creates the view model.
    public init(actions: Actions) {
        self.actions = actions
    }

    /// The screen's state.
    public var state: VaultAuthState { machine.state }

    /// Unlocks with the password field; the field is cleared after a successful unlock.
    public func submit() async {
        var effect = machine.submit(password: password)
        defer { if case .authenticated = machine.state { password = "" } }
        while effect != .none {
            do {
                switch effect {
                case .none:
                    return
                case .requestAction:
                    let action = try await actions.requestAction()
                    effect = machine.actionReceived(action)
                case .execute(let action, let password):
                    let session = try await actions.execute(action, password)
                    self.session = session
                    effect = machine.authenticated(userGUID: session.credential.userGUID)
                }
            } catch {
                effect = machine.failed(APIError.from(error))
            }
        }
    }

    /// Locks again: forgets the session and returns to the password field.
    public func lock() {
        session = nil
        password = ""
        _ = machine.reset()
    }
}
