// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import NIOConcurrencyHelpers
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// The APNs provider's pure decisions: answer classification, back-off, provider-token timing, the queue.
@Suite struct APNSDecisionTests {
    private static let registered = Date(timeIntervalSince1970: 1_800_000_000)
    private static let registeredMs: Int64 = 1_800_000_000_000

    private static func react(_ status: Int, _ reason: String?, timestamp: Int64? = nil) -> APNSReaction {
        APNSResponseClassifier.reaction(status: status, reason: reason, timestamp: timestamp, registeredAt: registered)
    }

    @Test func everyDocumentedAnswerHasItsReaction() {
        #expect(Self.react(200, nil) == .delivered)
        #expect(Self.react(400, "BadDeviceToken") == .dropToken(reason: "BadDeviceToken"))
        #expect(Self.react(400, "DeviceTokenNotForTopic") == .dropToken(reason: "DeviceTokenNotForTopic"))
        #expect(Self.react(400, "BadPriority") == .fail(reason: "BadPriority"))
        #expect(Self.react(400, "MissingTopic") == .fail(reason: "MissingTopic"))
        #expect(Self.react(400, "IdleTimeout") == .retry(reason: "IdleTimeout"))
        #expect(Self.react(403, "ExpiredProviderToken") == .refreshProviderToken(reason: "ExpiredProviderToken"))
        #expect(Self.react(403, "InvalidProviderToken") == .fail(reason: "InvalidProviderToken"))
        #expect(Self.react(404, "BadPath") == .fail(reason: "BadPath"))
        #expect(Self.react(405, "MethodNotAllowed") == .fail(reason: "MethodNotAllowed"))
        #expect(Self.react(413, "PayloadTooLarge") == .fail(reason: "PayloadTooLarge"))
        #expect(Self.react(429, "TooManyRequests") == .retry(reason: "TooManyRequests"))
        #expect(Self.react(429, "TooManyProviderTokenUpdates") == .retry(reason: "TooManyProviderTokenUpdates"))
        #expect(Self.react(500, "InternalServerError") == .retry(reason: "InternalServerError"))
        #expect(Self.react(503, "ServiceUnavailable") == .retry(reason: "ServiceUnavailable"))
        #expect(Self.react(503, "Shutdown") == .retry(reason: "Shutdown"))
        #expect(Self.react(502, nil) == .retry(reason: "Status502"))
    }

    @Test func unregisteredDropsTheTokenOnlyWhenLaterThanItsRegistration() {
        let later = Self.react(410, "Unregistered", timestamp: Self.registeredMs + 1)
        #expect(later == .dropToken(reason: "Unregistered"))
        #expect(Self.react(410, "Unregistered", timestamp: Self.registeredMs) == .keepToken(reason: "Unregistered"))
        #expect(
            Self.react(410, "Unregistered", timestamp: Self.registeredMs - 5_000) == .keepToken(reason: "Unregistered"))
        #expect(Self.react(410, "ExpiredToken", timestamp: Self.registeredMs + 9) == .dropToken(reason: "ExpiredToken"))
        #expect(Self.react(410, "Unregistered") == .dropToken(reason: "Unregistered"))
    }

    @Test func metricLabelsAreBounded() {
        #expect(APNSResponseClassifier.metricLabel("BadDeviceToken") == "BadDeviceToken")
        #expect(APNSResponseClassifier.metricLabel("Status502") == "Status502")
        #expect(APNSResponseClassifier.metricLabel("SomethingNew\u{1}") == "Other")
        #expect(APNSResponseClassifier.metricLabel("Status5020000") == "Other")
    }

    @Test func backOffDoublesWithJitterUpToTheCapAndEnds() {
        let policy = APNSRetryPolicy(maxAttempts: 10, base: .milliseconds(500), cap: .seconds(4))
        #expect(policy.delay(afterAttempt: 1, jitter: 0) == .milliseconds(250))
        #expect(policy.delay(afterAttempt: 1, jitter: 1) == .milliseconds(500))
        #expect(policy.delay(afterAttempt: 2, jitter: 0.5) == .milliseconds(750))
        #expect(policy.delay(afterAttempt: 3, jitter: 0) == .seconds(1))
        #expect(policy.delay(afterAttempt: 5, jitter: 0) == .seconds(2))
        #expect(policy.delay(afterAttempt: 9, jitter: 1) == .seconds(4))
        #expect(policy.delay(afterAttempt: 10, jitter: 0) == nil)
        #expect(APNSRetryPolicy(maxAttempts: 1).delay(afterAttempt: 1, jitter: 0) == nil)
        #expect(APNSRetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }

    @Test func providerTokenIsReplacedAtFortyMinutesAndClampedIntoApplesWindow() {
        let policy = APNSProviderTokenPolicy()
        #expect(policy.needsNewToken(issuedAt: nil, now: 0))
        #expect(!policy.needsNewToken(issuedAt: 1_000, now: 1_000))
        #expect(!policy.needsNewToken(issuedAt: 1_000, now: 1_000 + 40 * 60 - 1))
        #expect(policy.needsNewToken(issuedAt: 1_000, now: 1_000 + 40 * 60))
        #expect(!policy.needsNewToken(issuedAt: 1_000, now: 1_000 - 60))
        #expect(policy.needsNewToken(issuedAt: 1_000, now: 1_000 - 61))
        #expect(APNSProviderTokenPolicy(refreshInterval: .seconds(60)).refreshInterval == .seconds(20 * 60))
        #expect(APNSProviderTokenPolicy(refreshInterval: .seconds(7_200)).refreshInterval == .seconds(55 * 60))
        #expect(policy.mayReplaceRejected(rejectedSerial: 3, currentSerial: 3))
        #expect(!policy.mayReplaceRejected(rejectedSerial: 3, currentSerial: 4))
    }

    @Test func providerTokenIsAnES256JWTWithKidIssAndIat() throws {
        let key = P256.Signing.PrivateKey()
        let token = try APNSProviderToken.sign(
            keyID: "ABC123DEFG", teamID: "TEAM123456", issuedAt: 1_800_000_000, key: key, serial: 1)
        let jws = try CompactJWS(parsing: token.jwt)
        #expect(jws.header == .object([("alg", .string("ES256")), ("kid", .string("ABC123DEFG"))]))
        #expect(jws.payload == .object([("iss", .string("TEAM123456")), ("iat", .integer(1_800_000_000))]))
        #expect(ES256.isValid(signature: jws.signature, for: jws.signingInput, publicKey: key.publicKey))
    }

    @Test func providerTokenCacheSignsOncePerIntervalAndOnceAfterAnExpiry() throws {
        let clock = ManualClock()
        let signed = APNSCallCounter()
        let cache = APNSProviderTokenCache(
            keyID: "ABC123DEFG", teamID: "TEAM123456", key: P256.Signing.PrivateKey(),
            policy: APNSProviderTokenPolicy(), clock: clock.wall, onRefresh: { signed.add() })
        let first = try cache.current()
        clock.advance(39 * 60)
        #expect(try cache.current() == first)
        #expect(signed.value == 1)
        clock.advance(60)
        let second = try cache.current()
        #expect(second != first)
        #expect(second.issuedAt == first.issuedAt + 40 * 60)
        // Many pushes refused with the same token: one new token.
        cache.invalidate(second)
        let third = try cache.current()
        cache.invalidate(second)
        #expect(try cache.current() == third)
        #expect(signed.value == 3)
    }

    private static func request(_ token: String, _ environment: APNSEnvironment = .production) -> APNSPushRequest {
        APNSPushRequest(
            deviceToken: token, environment: environment, topic: "org.vettid.app", registeredAt: registered)
    }

    @Test func queueIsFirstInFirstOutOnePerDeviceAndBounded() {
        var queue = APNSPushQueue(capacity: 2)
        let a = Self.request(String(repeating: "a", count: 64))
        var a2 = a
        a2.pushID = UUID()
        let b = Self.request(String(repeating: "b", count: 64))
        #expect(queue.offer(a) == .queued)
        #expect(queue.offer(b) == .queued)
        #expect(queue.offer(a2) == .coalesced)
        #expect(queue.offer(Self.request(String(repeating: "c", count: 64))) == .full)
        // The same token in the other environment is another device.
        #expect(queue.offer(Self.request(String(repeating: "a", count: 64), .sandbox)) == .full)
        #expect(queue.next() == a2)
        #expect(queue.next() == b)
        #expect(queue.next() == nil)
        #expect(queue.offer(a) == .queued)
        #expect(queue.count == 1)
    }

    @Test func queueStaysOrderedOverManyTurns() {
        // Long enough for the queue to compact its storage on the way.
        var queue = APNSPushQueue(capacity: 10_000)
        for round in 0..<3_000 {
            let token = String(format: "%064x", round)
            #expect(queue.offer(Self.request(token)) == .queued)
            if round % 2 == 1 {
                #expect(queue.next()?.deviceToken == String(format: "%064x", round / 2))
            }
        }
        #expect(queue.count == 1_500)
        var last = -1
        while let next = queue.next() {
            let value = Int(next.deviceToken, radix: 16) ?? -1
            #expect(value > last)
            last = value
        }
    }

    @Test func deviceTokensAreCheckedAndLoggedOnlyAsAHash() {
        let token = String(repeating: "0f", count: 32)
        #expect(APNSDeviceToken.isWellFormed(token))
        #expect(!APNSDeviceToken.isWellFormed(String(repeating: "0F", count: 32)))
        #expect(!APNSDeviceToken.isWellFormed(String(repeating: "0", count: 63)))
        #expect(!APNSDeviceToken.isWellFormed(String(repeating: "g", count: 64)))
        let id = APNSDeviceToken.logID(token)
        #expect(id.count == 12)
        #expect(!token.contains(id))
        #expect(
            APNSPushRequest(deviceToken: token.uppercased(), environment: .sandbox, topic: "a.b", registeredAt: Date())
                .deviceToken == token)
    }

    @Test func payloadIsAContentFreeMutableAlert() {
        let bytes = APNSAlertPayload.bytes(title: "VettID", body: "You have a new message.")
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"aps":{"alert":{"title":"VettID","body":"You have a new message."},"mutable-content":1}}"#)
    }
}

/// A thread-safe counter for callbacks.
final class APNSCallCounter: Sendable {
    private let count = NIOLockedValueBox(0)
    func add() { count.withLockedValue { $0 += 1 } }
    var value: Int { count.withLockedValue { $0 } }
}
