// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Observation
public import VettIDClient
import VettIDCore

/// The enrollment screen: scan an invitation, attest the device, choose the vault password (with a live strength
/// meter), finalize. A thin shell over ``EnrollmentStateMachine`` that performs its effects.
///
/// ```swift
/// let model = EnrollmentViewModel(actions: .live(vaultService))
/// model.beginScanning()
/// await model.scanned(qrText)          // → .attesting(…) → .settingPassword(strength:)
/// model.password = "…"                 // the strength updates as the member types
/// await model.submitPassword()         // → .finalizing(…) → .complete(userGUID:)
/// ```
@Observable
@MainActor
public final class EnrollmentViewModel {
    /// What the view model asks of the SDK; ``live(_:)`` uses a `VaultService`, tests pass closures.
    public struct Actions: Sendable {
        /// Redeems the invitation; returns whether the server requires attestation.
        public var start: @MainActor @Sendable (EnrollmentInvitationLink) async throws -> Bool
        /// Attests the device.
        public var attest: @MainActor @Sendable () async throws -> Void
        /// Sends the password.
        public var setPassword: @MainActor @Sendable (String) async throws -> Void
        /// Finalizes and stores the credential; returns the member's id.
        public var finalize: @MainActor @Sendable () async throws -> String

        /// Creates actions from closures.
        public init(
            start: @escaping @MainActor @Sendable (EnrollmentInvitationLink) async throws -> Bool,
            attest: @escaping @MainActor @Sendable () async throws -> Void,
            setPassword: @escaping @MainActor @Sendable (String) async throws -> Void,
            finalize: @escaping @MainActor @Sendable () async throws -> String
        ) {
            self.start = start
            self.attest = attest
            self.setPassword = setPassword
            self.finalize = finalize
        }

        /// Actions performed by a `VaultService`: each `start` opens a new `VaultEnrollment`.
        public static func live(_ service: VaultService) -> Actions {
            let current = EnrollmentBox()
            return Actions(
                start: { link in
                    let enrollment = service.enrollment()
                    current.enrollment = enrollment
                    return try await enrollment.start(link).attestationRequired
                },
                attest: { try await current.require().attest() },
                setPassword: { password in try await current.require().setPassword(password) },
                finalize: { try await current.require().finalize().package.userGUID }
            )
        }
    }

    /// The password field; every change is rated.
    public var password = "" {
        didSet { if password != oldValue { _ = machine.passwordChanged(password) } }
    }
    /// The password's confirmation field; the password is sent only when both match.
    public var confirmation = ""
    /// The manual code entry, kept formatted as a prefix of `XXXX-XXXX` (``InvitationCodeInput``).
    public var manualCode = "" {
        didSet {
            let formatted = InvitationCodeInput.format(manualCode)
            if formatted != manualCode { manualCode = formatted }
        }
    }
    /// The server a typed invitation code is redeemed at (a scanned one names its own), or `nil` when the app
    /// offers no manual entry.
    public let manualEntryOrigin: URL?
    /// The screen logic and state.
    public private(set) var machine: EnrollmentStateMachine
    /// Why the camera preview could not be set up while scanning (``cameraFailed(_:)``), until ``retryCamera()`` or
    /// the next ``beginScanning()``; the scanner then shows why instead of a black viewfinder.
    public private(set) var cameraFailure: CameraCaptureFailure?

    @ObservationIgnored private let actions: Actions

    /// Creates the view model.
    /// - Parameters:
    ///   - actions: The SDK calls.
    ///   - meter: The strength meter (the server's policy by default).
    ///   - userInputs: Words the member may reuse in a password (email parts), for the meter.
    ///   - manualEntryOrigin: The server typed codes are redeemed at (`nil`: scanning only).
    public init(
        actions: Actions, meter: PasswordStrengthMeter = PasswordStrengthMeter(), userInputs: [String] = [],
        manualEntryOrigin: URL? = nil
    ) {
        self.actions = actions
        self.manualEntryOrigin = manualEntryOrigin
        self.machine = EnrollmentStateMachine(meter: meter, userInputs: userInputs)
    }

    /// The screen's state.
    public var state: EnrollmentState { machine.state }

    /// Whether a request is running.
    public var isBusy: Bool {
        switch machine.state {
        case .attesting, .finalizing: true
        default: false
        }
    }

    /// Opens the scanner (and sets the camera up afresh).
    public func beginScanning() {
        cameraFailure = nil
        _ = machine.beginScanning()
    }

    /// Records that the camera preview could not be set up. Ignored unless the scanner is showing: a preview that
    /// reports late, after the flow moved on, changes nothing.
    public func cameraFailed(_ failure: CameraCaptureFailure) {
        guard case .scanningQR = machine.state else { return }
        cameraFailure = failure
    }

    /// Shows the camera again after ``cameraFailed(_:)`` (the view sets up a new capture session).
    public func retryCamera() {
        cameraFailure = nil
    }

    /// Handles a scanned QR payload and runs the enrollment up to the password step.
    public func scanned(_ payload: String) async {
        await run(machine.scanned(payload))
    }

    /// Whether a typed code can be redeemed (``manualEntryOrigin`` is set).
    public var allowsManualEntry: Bool { manualEntryOrigin != nil }

    /// Redeems the typed code at ``manualEntryOrigin`` and runs the enrollment up to the password step.
    public func submitCode() async {
        guard let manualEntryOrigin else { return }
        await run(machine.codeEntered(manualCode, apiOrigin: manualEntryOrigin))
    }

    /// Submits the password (only when the meter accepts it and ``confirmation`` matches), then finalizes. Both
    /// fields are cleared on success.
    public func submitPassword() async {
        guard password == confirmation else { return }
        await run(machine.submitPassword(password))
        clearSecretsIfComplete()
    }

    /// The screen's presentation for a camera authorization (and ``cameraFailure``).
    public func screen(camera: CameraAuthorization, format: PresentationFormat = .current) -> EnrollmentScreen {
        EnrollmentScreen(
            state: machine.state, password: password, confirmation: confirmation, manualCode: manualCode,
            camera: camera, cameraFailure: cameraFailure, allowsManualEntry: allowsManualEntry, format: format)
    }

    private func clearSecretsIfComplete() {
        if case .complete = machine.state {
            password = ""
            confirmation = ""
        }
    }

    /// Repeats the failed step after a retryable error.
    public func retry() async {
        await run(machine.retry())
        clearSecretsIfComplete()
    }

    /// Starts over.
    public func reset() {
        password = ""
        confirmation = ""
        cameraFailure = nil
        manualCode = ""
        _ = machine.reset()
    }

    private func run(_ first: EnrollmentStateMachine.Effect) async {
        var effect = first
        while effect != .none {
            do {
                switch effect {
                case .none:
                    return
                case .start(let link):
                    let attestationRequired = try await actions.start(link)
                    effect = machine.sessionStarted(attestationRequired: attestationRequired)
                case .attest:
                    try await actions.attest()
                    effect = machine.attested()
                case .setPassword(let password):
                    try await actions.setPassword(password)
                    effect = machine.passwordAccepted()
                case .finalize:
                    let userGUID = try await actions.finalize()
                    effect = machine.finalized(userGUID: userGUID)
                }
            } catch {
                effect = machine.failed(APIError.from(error))
            }
        }
    }
}

/// The enrollment of the current attempt (``EnrollmentViewModel/Actions/live(_:)``).
@MainActor
final class EnrollmentBox {
    var enrollment: VaultEnrollment?

    nonisolated init() {}

    func require() throws -> VaultEnrollment {
        guard let enrollment else {
            throw APIError(code: .stepOutOfOrder, description: "Scan an invitation first.")
        }
        return enrollment
    }
}
