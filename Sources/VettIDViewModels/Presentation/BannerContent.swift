// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A message above a screen's content: an error with its retry, or a notice.
public struct BannerContent<ActionKind: Sendable & Hashable>: Sendable, Hashable {
    /// What the message means.
    public let tone: Tone
    /// The message.
    public let message: String
    /// The action that can help (retry, open Settings), if any.
    public let action: ScreenAction<ActionKind>?

    /// Creates a banner.
    public init(tone: Tone, message: String, action: ScreenAction<ActionKind>? = nil) {
        self.tone = tone
        self.message = message
        self.action = action
    }
}
