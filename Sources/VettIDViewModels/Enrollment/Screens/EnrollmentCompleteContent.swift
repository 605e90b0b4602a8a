// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The finished enrollment (seed 002's `EnrollmentCompleteView`).
public struct EnrollmentCompleteContent: Sendable, Hashable {
    /// The symbol and heading.
    public let badge: StatusBadge
    /// What happened.
    public let message: String
    /// The member's id.
    public let rows: [InfoRowContent]
    /// Leave the enrollment.
    public let done: ScreenAction<EnrollmentAction>

    /// Computes the screen for the member's id.
    public init(userGUID: String) {
        badge = StatusBadge(symbolName: "checkmark.seal.fill", tone: .positive, text: "You're Enrolled")
        message = "Your vault credential is sealed and stored on this device. Unlock your vault with your password."
        rows = [InfoRowContent(label: "Member ID", value: userGUID)]
        done = ScreenAction(.done, title: "Done")
    }
}
