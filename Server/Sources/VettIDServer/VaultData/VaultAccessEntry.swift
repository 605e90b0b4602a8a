// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// One handler call in a member's vault: which device, which handler, when, and how it ended.
public struct VaultAccessEntry: Sendable, Equatable {
    /// The member (GUID).
    public let memberID: String
    /// The RFC 7638 thumbprint of the device whose sealed session carried the call; `nil` for a plaintext request.
    public let deviceThumbprint: String?
    /// The handler id the request named (at most 128 bytes).
    public let handlerID: String
    /// `ok`, or the error code the vault answered.
    public let outcome: String
    /// When the vault answered.
    public let occurredAt: Date

    public init(memberID: String, deviceThumbprint: String?, handlerID: String, outcome: String, occurredAt: Date) {
        self.memberID = memberID
        self.deviceThumbprint = deviceThumbprint
        self.handlerID = handlerID
        self.outcome = outcome
        self.occurredAt = occurredAt
    }
}
