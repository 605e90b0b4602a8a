// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDNats
public import VettIDViewModels

/// The messaging status line (seed 000's `NatsConnectionStatusView`): an indicator and a short text for every
/// set-up and connection state, and the action that can help.
///
/// ```swift
/// let content = NatsConnectionStatusContent(setup: setupModel.state, connection: manager.state)
/// // content.indicator == .dot(.positive), content.text == "Connected"
/// ```
public struct NatsConnectionStatusContent: Sendable, Hashable {
    /// What the indicator shows.
    public enum Indicator: Sendable, Hashable {
        /// Nothing (set-up has not started): the view shows nothing at all.
        case hidden
        /// A small spinner: something runs.
        case progress
        /// A dot of the tone's colour.
        case dot(Tone)
    }

    /// What the line's button does.
    public enum ActionKind: String, Sendable, Hashable {
        /// Run the set-up again (`NatsSetupViewModel.retry()`), or reconnect (`NatsConnectionManager.connect()`).
        case retry
        /// Show the sign-in screen.
        case signIn
    }

    /// The indicator.
    public let indicator: Indicator
    /// The text beside it (one line).
    public let text: String
    /// What VoiceOver reads for the line.
    public let accessibilityLabel: String
    /// The action that can help, if any.
    public let action: ScreenAction<ActionKind>?

    /// Whether the line is shown at all.
    public var isVisible: Bool { indicator != .hidden }

    /// The line for a set-up, refined by the connection once set up (a reconnect or a lost connection shows), with
    /// the notices that arrived from the device's mailbox (`NatsConnectionManager.mailboxArrivals`) while connected.
    public init(setup: NatsSetupState, connection: NatsConnectionState? = nil, mailboxArrivals: Int = 0) {
        switch setup {
        case .initial:
            self.init(indicator: .hidden, text: "", action: nil)
        case .creatingAccount:
            self.init(indicator: .progress, text: "Setting up messaging…", action: nil)
        case .generatingToken:
            self.init(indicator: .progress, text: "Getting access…", action: nil)
        case .connecting:
            self.init(indicator: .progress, text: "Connecting…", action: nil)
        case .connected:
            if let connection, connection != .connected {
                self.init(connection: connection)
            } else {
                self.init(indicator: .dot(.positive), text: Self.connected(mailboxArrivals), action: nil)
            }
        case .error(let message):
            self.init(indicator: .dot(.critical), text: message, action: ScreenAction(.retry, title: "Try Again"))
        case .signInRequired:
            self.init(
                indicator: .dot(.caution), text: "Signed out. Sign in to reconnect.",
                action: ScreenAction(.signIn, title: "Sign In"))
        }
    }

    /// The line for a connection alone (`NatsConnectionManager.state`), with the notices that arrived from the
    /// device's mailbox (`NatsConnectionManager.mailboxArrivals`) while connected.
    public init(connection: NatsConnectionState, mailboxArrivals: Int = 0) {
        switch connection {
        case .disconnected:
            self.init(indicator: .dot(.neutral), text: "Offline", action: ScreenAction(.retry, title: "Connect"))
        case .connecting:
            self.init(indicator: .progress, text: "Connecting…", action: nil)
        case .connected:
            self.init(indicator: .dot(.positive), text: Self.connected(mailboxArrivals), action: nil)
        case .error(let message):
            self.init(indicator: .dot(.critical), text: message, action: ScreenAction(.retry, title: "Reconnect"))
        }
    }

    /// "Connected", and how many notices arrived from the mailbox when any did.
    private static func connected(_ arrivals: Int) -> String {
        switch arrivals {
        case ...0: "Connected"
        case 1: "Connected · 1 message arrived"
        default: "Connected · \(arrivals) messages arrived"
        }
    }

    private init(indicator: Indicator, text: String, action: ScreenAction<ActionKind>?) {
        self.indicator = indicator
        self.text = text
        self.action = action
        self.accessibilityLabel = text.isEmpty ? "" : "Messaging: \(text)"
    }
}
