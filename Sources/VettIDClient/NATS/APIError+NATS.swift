// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Server codes of the NATS endpoints.
extension APIError.Code {
    /// `nats_not_configured`: 503, the server has no nats-server; messaging is unavailable there.
    public static let natsNotConfigured = APIError.Code(rawValue: "nats_not_configured")
    /// `nats_unavailable`: 503, the server could not reach nats-server (a revocation stays recorded).
    public static let natsUnavailable = APIError.Code(rawValue: "nats_unavailable")
}

extension APIError {
    /// Matches ``Code/natsNotConfigured`` in `catch` patterns.
    public static var natsNotConfigured: Code { .natsNotConfigured }
    /// Matches ``Code/natsUnavailable`` in `catch` patterns.
    public static var natsUnavailable: Code { .natsUnavailable }
}
