// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Decides which QR detections the scanner reports: a camera sees the same code many times a second, and a
/// payload must reach the view model once, not once per frame.
///
/// A payload is reported when it differs from the last one reported, or when the same one is seen again after
/// `repeatInterval` (the member scanned it again after an error). ``reset()`` forgets the last payload.
public struct QRScanFilter: Sendable {
    /// How long the same payload is ignored after it was reported.
    public let repeatInterval: Duration
    private var last: (payload: String, at: Date)?

    /// Creates a filter.
    public init(repeatInterval: Duration = .seconds(2)) {
        self.repeatInterval = repeatInterval
    }

    /// A detection at `now`: whether to report it.
    public mutating func accept(_ payload: String, at now: Date) -> Bool {
        let trimmed = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return false }
        if let last, last.payload == trimmed,
            now.timeIntervalSince(last.at) < Double(repeatInterval.components.seconds)
                + Double(repeatInterval.components.attoseconds) / 1e18
        {
            return false
        }
        last = (trimmed, now)
        return true
    }

    /// Forgets the last payload (the scanner reopened).
    public mutating func reset() {
        last = nil
    }
}
