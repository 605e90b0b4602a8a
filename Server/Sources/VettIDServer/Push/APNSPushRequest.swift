// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// One wake push to send: which device, and what the token store knows about its token.
///
/// The push carries no content: the device's Notification Service Extension fetches and decrypts what woke it.
public struct APNSPushRequest: Sendable, Equatable {
    /// The device token, lower-case hex as the device registered it. Never logged (``tokenLogID`` is).
    public var deviceToken: String
    /// Which APNs service the token belongs to.
    public var environment: APNSEnvironment
    /// The app's bundle id: the push's `apns-topic`; one of the configured bundle ids.
    public var topic: String
    /// When the device registered this token: a 410 `Unregistered` whose `timestamp` is not later leaves it alone.
    public var registeredAt: Date
    /// The `apns-collapse-id`: pushes with the same one replace each other on the device (at most 64 bytes).
    public var collapseID: String
    /// The `apns-id` of the push, kept for tracing (APNs echoes it; the device gets it too).
    public var pushID: UUID

    /// A push to `deviceToken` for `topic` in `environment`, the token registered at `registeredAt`.
    public init(
        deviceToken: String,
        environment: APNSEnvironment,
        topic: String,
        registeredAt: Date,
        collapseID: String = "vettid.mailbox",
        pushID: UUID = UUID()
    ) {
        self.deviceToken = deviceToken.lowercased()
        self.environment = environment
        self.topic = topic
        self.registeredAt = registeredAt
        self.collapseID = collapseID
        self.pushID = pushID
    }

    /// A short, stable, non-reversible name of the device token for logs: the first 12 hex digits of its SHA-256.
    public var tokenLogID: String { APNSDeviceToken.logID(deviceToken) }
}

/// What became of one push, told to the ``APNSPushOutcomeHandler``.
public struct APNSPushOutcome: Sendable, Equatable {
    /// The kind of ending.
    public struct Disposition: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// APNs accepted the push (200).
        public static let delivered = Disposition(rawValue: "delivered")
        /// Apple says the token is bad or unregistered after its registration: remove it from the token store.
        public static let dropToken = Disposition(rawValue: "drop_token")
        /// APNs did not take the push (another refusal, or retries exhausted); the token stays.
        public static let failed = Disposition(rawValue: "failed")
    }

    /// The push.
    public let request: APNSPushRequest
    /// How it ended.
    public let disposition: Disposition
    /// The last HTTP status from APNs (`nil`: no answer, e.g. the connection was lost).
    public let status: Int?
    /// Apple's reason for a refusal, or `ConnectionError` / `Timeout`.
    public let reason: String?
    /// Requests made for this push.
    public let attempts: Int
}

/// Told how each push ended: the token store removes tokens whose ``APNSPushOutcome/disposition`` is
/// ``APNSPushOutcome/Disposition/dropToken``.
public protocol APNSPushOutcomeHandler: Sendable {
    /// `outcome` happened. Runs on the provider's sending task: keep it short.
    func pushFinished(_ outcome: APNSPushOutcome) async
}

/// What ``APNSProvider/enqueue(_:)`` did with a push.
public struct APNSEnqueueResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Queued.
    public static let queued = APNSEnqueueResult(rawValue: "queued")
    /// Replaced a push already waiting for the same device.
    public static let coalesced = APNSEnqueueResult(rawValue: "coalesced")
    /// Dropped: the queue is full (counted in `vettid_apns_queue_dropped_total`).
    public static let queueFull = APNSEnqueueResult(rawValue: "queue_full")
    /// Refused: the token is not hex, the topic is not a configured bundle id, or the collapse id is too long.
    public static let invalid = APNSEnqueueResult(rawValue: "invalid")
    /// Refused: the provider's ``APNSProvider/run()`` has ended (pushes queued before it starts are kept).
    public static let stopped = APNSEnqueueResult(rawValue: "stopped")
}
