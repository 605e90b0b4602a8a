// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDMessaging

/// The pure logic of the secrets screen: events in, a new ``SecretsState`` and an ``Effect`` out.
///
/// One request at a time: a request asked for while another runs is ignored, and so is an answer to a request that
/// is not the running one. Listing needs no vault authentication; reading a value does: a read the vault refuses
/// with `vault_authentication_required` leaves the screen ``SecretsState/Activity/locked(name:)`` until
/// ``unlocked()`` (the member authenticated to the vault), which reads the same name again. A failure keeps the list
/// on screen; ``retry()`` sends the failed request again when it can succeed (`vault_unavailable`). A save is sent
/// with the version it replaces (`0` for a new name) and a delete with the version listed, so a change made on
/// another device meanwhile ends in `version_conflict`, not in a lost value. Tested without a network.
public struct SecretsStateMachine: Sendable {
    /// What the view model must do next.
    public enum Effect: Sendable, Hashable {
        /// Nothing.
        case none
        /// List the secrets, then report ``loaded(_:)`` or ``failed(_:operation:)``.
        case load
        /// Read the value of `name`, then report ``revealed(_:)``, ``lockedOut(_:)`` or ``failed(_:operation:)``.
        case reveal(name: String)
        /// Store `value` under `name`, then report ``saved(_:)`` or ``failed(_:operation:)``.
        case save(name: String, value: SecretBytes, expectedVersion: Int64)
        /// Delete `name`, then report ``deleted(_:)`` or ``failed(_:operation:)``.
        case delete(name: String, expectedVersion: Int64)
    }

    /// A value waiting to be stored (kept for a retry, dropped once stored or another request starts).
    struct PendingSave: Sendable, Hashable {
        let name: String
        let value: SecretBytes
        let expectedVersion: Int64
    }

    /// The current state.
    public private(set) var state = SecretsState()
    /// The request running, if any.
    private(set) var running: SecretsOperation?
    private(set) var pendingSave: PendingSave?

    /// Creates the machine (``SecretsState/Activity/loading``, nothing listed yet).
    public init() {}

    /// Whether a request runs.
    public var isBusy: Bool { running != nil }

    // MARK: Requests

    /// The screen appears, or the member pulls to refresh or reloads after an error: list the secrets.
    public mutating func load() -> Effect {
        start(.load)
    }

    /// The member asks to see the value of `name` (one of the listed secrets).
    public mutating func revealRequested(_ name: String) -> Effect {
        guard state.summary(named: name) != nil else { return .none }
        return start(.reveal(name: name))
    }

    /// The member hides the value on screen, or gives up unlocking: back to the list.
    public mutating func hide() -> Effect {
        guard running == nil else { return .none }
        switch state.activity {
        case .revealed, .locked: state.activity = .idle
        default: break
        }
        return .none
    }

    /// The member stores `value` under `name`: a new secret, or the next version of a listed one. A name or size
    /// the vault's limits refuse fails here, without a request (`invalid_secret_name`, `secret_too_large`).
    public mutating func saveRequested(name: String, value: SecretBytes) -> Effect {
        guard running == nil, state.secrets != nil else { return .none }
        let limits = state.limits ?? .standard
        do throws(VaultMessageError) {
            try limits.checkSecretName(name)
            try limits.checkSecretValue(byteCount: value.count)
        } catch {
            pendingSave = nil
            state.activity = .failed(Self.failure(for: error, operation: .save(name: name), limits: limits))
            return .none
        }
        pendingSave = PendingSave(name: name, value: value, expectedVersion: state.summary(named: name)?.version ?? 0)
        return start(.save(name: name))
    }

    /// The member deletes `name` (one of the listed secrets).
    public mutating func deleteRequested(_ name: String) -> Effect {
        guard state.summary(named: name) != nil else { return .none }
        return start(.delete(name: name))
    }

    /// The member retries after a retryable failure: the failed request runs again.
    public mutating func retry() -> Effect {
        guard case .failed(let failure) = state.activity, failure.retryable else { return .none }
        return start(failure.operation)
    }

    // MARK: Answers

    /// The vault listed the secrets.
    public mutating func loaded(_ list: SecretList) -> Effect {
        guard running == .load else { return .none }
        running = nil
        state.secrets = SecretsState.sorted(list.secrets)
        state.limits = list.limits
        state.activity = .idle
        return .none
    }

    /// The vault answered a value: it is shown in its row.
    public mutating func revealed(_ value: SecretValue) -> Effect {
        guard case .reveal(let name) = running else { return .none }
        guard value.name == name else {
            return failed(Self.otherName(value.name, for: name), operation: .reveal(name: name))
        }
        running = nil
        state.activity = .revealed(RevealedSecret(value))
        return .none
    }

    /// The vault refused to read `name` until this device authenticates to it again.
    public mutating func lockedOut(_ name: String) -> Effect {
        guard running == .reveal(name: name) else { return .none }
        running = nil
        state.activity = .locked(name: name)
        return .none
    }

    /// The member authenticated to the vault: read the locked name again.
    public mutating func unlocked() -> Effect {
        guard case .locked(let name) = state.activity else { return .none }
        return start(.reveal(name: name))
    }

    /// The vault stored a value: the list shows its new version.
    public mutating func saved(_ summary: SecretSummary) -> Effect {
        guard case .save(let name) = running else { return .none }
        guard summary.name == name else {
            return failed(Self.otherName(summary.name, for: name), operation: .save(name: name))
        }
        running = nil
        pendingSave = nil
        var secrets = state.secrets ?? []
        secrets.removeAll { $0.name == summary.name }
        secrets.append(summary)
        state.secrets = SecretsState.sorted(secrets)
        state.activity = .idle
        return .none
    }

    /// The vault deleted `name`.
    public mutating func deleted(_ name: String) -> Effect {
        guard running == .delete(name: name) else { return .none }
        running = nil
        state.secrets?.removeAll { $0.name == name }
        state.activity = .idle
        return .none
    }

    /// The running request failed. A read refused with `vault_authentication_required` locks the screen
    /// (``lockedOut(_:)``); a delete of a secret that is already gone counts as done; a read of one that is gone
    /// takes it off the list. Any other failure is shown with the list.
    public mutating func failed(_ error: VaultMessageError, operation: SecretsOperation) -> Effect {
        guard running == operation else { return .none }
        switch (operation, error.code) {
        case (.reveal(let name), .vaultAuthenticationRequired):
            return lockedOut(name)
        case (.delete(let name), .secretNotFound):
            return deleted(name)
        case (.reveal(let name), .secretNotFound):
            state.secrets?.removeAll { $0.name == name }
        default:
            break
        }
        running = nil
        state.activity = .failed(Self.failure(for: error, operation: operation, limits: state.limits ?? .standard))
        return .none
    }

    // MARK: Helpers

    private mutating func start(_ operation: SecretsOperation) -> Effect {
        guard running == nil else { return .none }
        let effect: Effect
        switch operation {
        case .load:
            effect = .load
            state.activity = .loading
            pendingSave = nil
        case .reveal(let name):
            effect = .reveal(name: name)
            state.activity = .revealing(name: name)
            pendingSave = nil
        case .save(let name):
            guard let pending = pendingSave, pending.name == name else { return .none }
            effect = .save(name: name, value: pending.value, expectedVersion: pending.expectedVersion)
            state.activity = .saving(name: name)
        case .delete(let name):
            guard let summary = state.summary(named: name) else { return .none }
            effect = .delete(name: name, expectedVersion: summary.version)
            state.activity = .deleting(name: name)
            pendingSave = nil
        }
        running = operation
        return effect
    }

    /// The error of an answer about another secret than the one asked for.
    static func otherName(_ answered: String, for asked: String) -> VaultMessageError {
        VaultMessageError(.invalidPayload, "the vault answered about “\(answered)” when asked about “\(asked)”")
    }

    /// The words for a failure of `operation`.
    static func failure(for error: VaultMessageError, operation: SecretsOperation, limits: VaultDataLimits)
        -> SecretsFailure
    {
        let code = error.code.rawValue
        let subject: String
        switch operation {
        case .load: subject = "Your secrets could not be loaded"
        case .reveal(let name): subject = "“\(name)” could not be shown"
        case .save(let name): subject = "“\(name)” could not be saved"
        case .delete(let name): subject = "“\(name)” could not be deleted"
        }
        let message: String
        var retryable = false
        switch error.code {
        case .unavailable:
            message = "\(subject): your vault cannot be reached. Check your connection and try again."
            retryable = true
        case .secretNotFound:
            message = "\(subject): it is no longer in your vault."
        case .versionConflict:
            message = "\(subject): it was changed on another device. Reload to see the latest version."
        case .secretLimitReached:
            message = "\(subject): your vault is full. Delete a secret to make room."
        case .secretTooLarge:
            message = "\(subject): a value is at most \(limits.maxValueBytes) bytes."
        case .invalidSecretName:
            message =
                "A secret’s name is 1 to \(limits.maxNameBytes) bytes long, with no control characters and no space "
                + "at either end."
        case .vaultAuthenticationRequired:
            message = "\(subject): unlock your vault, then try again."
        default:
            message = "\(subject): \(error.message)"
        }
        return SecretsFailure(operation: operation, message: message, retryable: retryable, code: code)
    }
}
