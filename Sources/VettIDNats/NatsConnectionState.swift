// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What a ``NatsConnectionManager`` is doing, for the UI.
public enum NatsConnectionState: Sendable, Hashable {
    /// Not connected and not trying (before ``NatsConnectionManager/connect()`` or after
    /// ``NatsConnectionManager/disconnect()``).
    case disconnected
    /// Getting credentials, connecting, or reconnecting after losing the server.
    case connecting
    /// Connected; publishes and subscriptions work (also while a token swap runs in the background).
    case connected
    /// Gave up; the message says why (credentials refused, server unreachable, …). ``NatsConnectionManager/connect()``
    /// tries again.
    case error(String)
}
