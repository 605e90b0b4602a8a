// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// What the provider does with one APNs answer.
enum APNSReaction: Sendable, Equatable {
    /// 200: delivered to APNs.
    case delivered
    /// Apple says the device token is bad (or unregistered since it was registered here): give up and tell the token
    /// store to remove it.
    case dropToken(reason: String)
    /// 410 whose `timestamp` is not later than the token's registration: the device registered the token again
    /// after APNs saw it go stale, so the token stays; this push is not retried.
    case keepToken(reason: String)
    /// 403 `ExpiredProviderToken`: sign a new provider token and retry, once.
    case refreshProviderToken(reason: String)
    /// 429, 5xx, a lost connection or GOAWAY: retry after a back-off, a bounded number of times.
    case retry(reason: String)
    /// Anything else (another 4xx): give up and log the reason; the token stays.
    case fail(reason: String)

    /// Apple's reason (or the provider's own, such as `ConnectionError`).
    var reason: String? {
        switch self {
        case .delivered: nil
        case .dropToken(let reason), .keepToken(let reason), .refreshProviderToken(let reason), .retry(let reason),
            .fail(let reason):
            reason
        }
    }
}

/// Classifies APNs answers (status and `reason`, Apple's "Handling notification responses from APNs") into
/// ``APNSReaction``s. Pure: the whole table is unit-tested.
enum APNSResponseClassifier {
    /// The reason counted for a request that got no answer: connection refused or reset, TLS failure, GOAWAY.
    static let connectionError = "ConnectionError"
    /// The reason counted for a request that timed out.
    static let timeout = "Timeout"
    /// The reason of an endpoint that answered over HTTP/1: not APNs (or a proxy in the way); not retried.
    static let notHTTP2 = "NotHTTP2"

    /// The reaction to a request that got no answer: `error` is what the transport threw.
    static func reaction(toFailure error: any Error) -> APNSReaction {
        switch (error as? APNSError)?.code {
        case APNSError.Code.notHTTP2: .fail(reason: notHTTP2)
        case APNSError.Code.timeout: .retry(reason: timeout)
        default: .retry(reason: connectionError)
        }
    }

    /// 400 reasons that mean the device token itself is wrong for this app and environment.
    static let badTokenReasons: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic"]
    /// 410 reasons: the token is no longer active for the topic.
    static let goneReasons: Set<String> = ["Unregistered", "ExpiredToken"]

    /// Every reason Apple documents, the only values a metric label takes (anything else is `Other`).
    static let knownReasons: Set<String> = [
        "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
        "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
        "MissingTopic", "PayloadEmpty", "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment",
        "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken", "UnrelatedKeyIdInToken",
        "BadEnvironmentKeyIdInToken", "BadPath", "MethodNotAllowed", "ExpiredToken", "Unregistered",
        "PayloadTooLarge", "TooManyProviderTokenUpdates", "TooManyRequests", "InternalServerError",
        "ServiceUnavailable", "Shutdown", connectionError, timeout, notHTTP2,
    ]

    /// The reaction to an answer with `status`, Apple's `reason` and (410 only) `timestamp` in milliseconds since
    /// 1970, for a token registered at `registeredAt`.
    static func reaction(status: Int, reason: String?, timestamp: Int64?, registeredAt: Date) -> APNSReaction {
        let reason = reason ?? "Status\(status)"
        switch status {
        case 200:
            return .delivered
        case 400 where badTokenReasons.contains(reason):
            return .dropToken(reason: reason)
        case 400 where reason == "IdleTimeout":
            return .retry(reason: reason)
        case 403 where reason == "ExpiredProviderToken":
            return .refreshProviderToken(reason: reason)
        case 410:
            // Apple: the token is inactive since `timestamp`; a registration after that is a newer, valid one.
            guard let timestamp else { return .dropToken(reason: reason) }
            let registered = Int64((registeredAt.timeIntervalSince1970 * 1000).rounded(.down))
            return timestamp > registered ? .dropToken(reason: reason) : .keepToken(reason: reason)
        case 429, 500...599:
            return .retry(reason: reason)
        default:
            return .fail(reason: reason)
        }
    }

    /// `reason` as a metric label: one of ``knownReasons`` or `Other`, so an unexpected answer mints no new series.
    static func metricLabel(_ reason: String) -> String {
        knownReasons.contains(reason) || (reason.hasPrefix("Status") && reason.count == 9) ? reason : "Other"
    }
}
