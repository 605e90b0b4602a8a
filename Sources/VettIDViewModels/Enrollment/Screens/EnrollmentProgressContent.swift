// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The progress of a running enrollment (seed 002's `AttestationView`): the four steps with their status and the
/// overall fraction.
public struct EnrollmentProgressContent: Sendable, Hashable {
    /// One step of the list.
    public struct Step: Sendable, Hashable, Identifiable {
        /// Where a step is.
        public enum Status: String, Sendable, Hashable {
            /// Finished.
            case done
            /// Running now.
            case running
            /// Not started.
            case pending
        }

        /// What the step does.
        public let label: String
        /// Where it is.
        public let status: Status

        /// The SF Symbols name of the status (a filled check, a clock, an empty circle).
        public var symbolName: String {
            switch status {
            case .done: "checkmark.circle.fill"
            case .running: "clock"
            case .pending: "circle"
            }
        }
        /// The tone of the status.
        public var tone: Tone {
            switch status {
            case .done: .positive
            case .running: .busy
            case .pending: .neutral
            }
        }

        /// The label identifies the step.
        public var id: String { label }
        /// What VoiceOver reads for the step.
        public var accessibilityLabel: String {
            switch status {
            case .done: "\(label), done"
            case .running: "\(label), in progress"
            case .pending: "\(label), not started"
            }
        }
    }

    /// The heading.
    public let title: String
    /// The running step's label.
    public let message: String
    /// How far the enrollment is (0…1).
    public let fraction: Double
    /// The fraction as VoiceOver reads it (`30%`).
    public let accessibilityValue: String
    /// Every step in order.
    public let steps: [Step]

    /// The order of the steps.
    static let order: [EnrollmentProgress] = [.startingSession, .attestingDevice, .sendingPassword, .sealingCredential]
    static let stepLabels: [EnrollmentProgress: String] = [
        .startingSession: "Redeem the invitation",
        .attestingDevice: "Verify this device",
        .sendingPassword: "Set your password",
        .sealingCredential: "Secure your credential",
    ]

    /// Computes the progress of the running step.
    public init(progress: EnrollmentProgress, format: PresentationFormat = .current) {
        switch progress {
        case .startingSession, .attestingDevice: title = "Verifying Your Device"
        case .sendingPassword, .sealingCredential: title = "Finishing Enrollment"
        }
        message = progress.label
        fraction = progress.fraction
        accessibilityValue = format.percent(progress.fraction)
        let current = Self.order.firstIndex(of: progress) ?? 0
        steps = Self.order.enumerated().map { index, step in
            Step(
                label: Self.stepLabels[step] ?? step.label,
                status: index < current ? .done : index == current ? .running : .pending)
        }
    }
}
