// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

/// The states of an enrollment session (docs/protocol.md §4).
public enum EnrollmentSessionState: String, Sendable, CaseIterable {
    /// Opened by `start`; waiting for the attestation (or, when none is required, the password).
    case started
    /// The device attested; waiting for the password.
    case attested
    /// The password is set (its Argon2id hash is held by the session); waiting for finalize.
    case passwordSet = "password_set"
    /// The credential is sealed and the package issued. Only a completed session has a credential.
    case completed
}

/// A step a device asks an enrollment session to take.
public enum EnrollmentStep: String, Sendable, CaseIterable {
    case attestation
    case password
    case finalize
}

/// The enrollment session state machine, pure: no storage, no clock, no I/O.
///
/// `started --attestation--> attested --password--> password_set --finalize--> completed`; without a required
/// attestation `started` accepts the password directly (an attestation is still accepted there, to raise the
/// security level). A step that already happened is a *repeat* (a client retrying after a lost response, e.g.
/// after a server crash): the service answers it idempotently after checking it is really the same request.
/// Anything else is out of order (409 `step_out_of_order`).
public enum EnrollmentStateMachine {
    /// What to do with a step.
    public enum Decision: Sendable, Equatable {
        /// Take the step and move to this state.
        case advance(to: EnrollmentSessionState)
        /// The step already happened; answer as before.
        case repeatStep
        /// Refuse: the session is not in a state where this step is allowed.
        case outOfOrder
    }

    /// The decision for `step` in `state`.
    public static func decide(
        _ step: EnrollmentStep, in state: EnrollmentSessionState, attestationRequired: Bool
    ) -> Decision {
        switch (step, state) {
        case (.attestation, .started): return .advance(to: .attested)
        case (.attestation, .attested): return .repeatStep
        case (.attestation, _): return .outOfOrder
        case (.password, .started): return attestationRequired ? .outOfOrder : .advance(to: .passwordSet)
        case (.password, .attested): return .advance(to: .passwordSet)
        case (.password, .passwordSet): return .repeatStep
        case (.password, .completed): return .outOfOrder
        case (.finalize, .passwordSet): return .advance(to: .completed)
        case (.finalize, .completed): return .repeatStep
        case (.finalize, _): return .outOfOrder
        }
    }

    /// The step the device should take next (`next_step` on the wire; `nil` once completed).
    public static func nextStep(after state: EnrollmentSessionState, attestationRequired: Bool) -> EnrollmentStep? {
        switch state {
        case .started: return attestationRequired ? .attestation : .password
        case .attested: return .password
        case .passwordSet: return .finalize
        case .completed: return nil
        }
    }
}
