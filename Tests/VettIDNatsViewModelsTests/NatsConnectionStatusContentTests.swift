// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDClient
import VettIDNats
import VettIDViewModels

@testable import VettIDNatsViewModels

/// A set-up status as the backend answers it once messaging is set up.
private let setupStatus = NatsStatus(
    hasAccount: true, account: nil, endpoint: "tls://nats.example.com:4222", activeTokens: [])

@Suite("Messaging status line presentation")
struct NatsConnectionStatusContentTests {
    @Test("every set-up state: indicator, text, action")
    func setupStates() {
        let cases:
            [(NatsSetupState, NatsConnectionStatusContent.Indicator, String, NatsConnectionStatusContent.ActionKind?)] =
                [
                    (.initial, .hidden, "", nil),
                    (.creatingAccount, .progress, "Setting up messaging…", nil),
                    (.generatingToken, .progress, "Getting access…", nil),
                    (.connecting, .progress, "Connecting…", nil),
                    (.connected(setupStatus), .dot(.positive), "Connected", nil),
                    (
                        .error(message: "The messaging server is unavailable."), .dot(.critical),
                        "The messaging server is unavailable.", .retry
                    ),
                    (.signInRequired, .dot(.caution), "Signed out. Sign in to reconnect.", .signIn),
                ]
        for (state, indicator, text, action) in cases {
            let content = NatsConnectionStatusContent(setup: state)
            #expect(content.indicator == indicator, "\(state)")
            #expect(content.text == text, "\(state)")
            #expect(content.action?.kind == action, "\(state)")
            #expect(content.isVisible == (state != .initial))
            #expect(content.accessibilityLabel == (text.isEmpty ? "" : "Messaging: \(text)"))
        }
    }

    @Test("every connection state, alone and once set up")
    func connectionStates() {
        let cases: [(NatsConnectionState, NatsConnectionStatusContent.Indicator, String, String?)] = [
            (.disconnected, .dot(.neutral), "Offline", "Connect"),
            (.connecting, .progress, "Connecting…", nil),
            (.connected, .dot(.positive), "Connected", nil),
            (.error("Authorization violation"), .dot(.critical), "Authorization violation", "Reconnect"),
        ]
        for (connection, indicator, text, actionTitle) in cases {
            let alone = NatsConnectionStatusContent(connection: connection)
            #expect(alone.indicator == indicator)
            #expect(alone.text == text)
            #expect(alone.action?.title == actionTitle)
            // Once set up, the connection's state decides the line.
            #expect(NatsConnectionStatusContent(setup: .connected(setupStatus), connection: connection) == alone)
        }
        #expect(
            NatsConnectionStatusContent(setup: .connecting, connection: .connected).indicator == .progress,
            "the set-up is still running")
    }

    @Test("the line counts what arrived from the mailbox while connected")
    func mailboxArrivals() {
        #expect(NatsConnectionStatusContent(connection: .connected, mailboxArrivals: 0).text == "Connected")
        #expect(
            NatsConnectionStatusContent(connection: .connected, mailboxArrivals: 1).text
                == "Connected · 1 message arrived")
        let three = NatsConnectionStatusContent(
            setup: .connected(setupStatus), connection: .connected, mailboxArrivals: 3)
        #expect(three.text == "Connected · 3 messages arrived")
        #expect(three.accessibilityLabel == "Messaging: Connected · 3 messages arrived")
        #expect(three.indicator == .dot(.positive))
        // Only a live connection shows the count; otherwise the connection's own line.
        #expect(NatsConnectionStatusContent(connection: .disconnected, mailboxArrivals: 3).text == "Offline")
        #expect(
            NatsConnectionStatusContent(setup: .connected(setupStatus), connection: .connecting, mailboxArrivals: 3)
                .text
                == "Connecting…")
    }
}
