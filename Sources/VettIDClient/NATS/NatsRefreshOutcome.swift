// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import VettIDCore

/// What one background NATS token refresh did.
public enum NatsRefreshOutcome: Sendable {
    /// New credentials were issued and stored (and handed to the manager, if any).
    case refreshed(NatsCredentials)
    /// The stored credentials still had more than the refresh window left; nothing was done.
    case notNeeded(expiresAt: Date)
    /// The provider or the store failed; the next run is scheduled anyway.
    case failed(String)
    /// The scheduler expired the run before it finished; the next run is scheduled anyway.
    case expired
    /// The member's session has ended (signed out, revoked, or its refresh token expired): the task stops until
    /// the app starts it again after the member signs in.
    case signInRequired

    /// A description of a provider error that cannot carry secrets: an ``APIError``'s code and text, otherwise the
    /// error's type.
    package static func summary(of error: any Error) -> String {
        if let apiError = APIError.unwrap(error) { return "\(apiError.code.rawValue): \(apiError.description)" }
        return "\(type(of: error))"
    }
}
