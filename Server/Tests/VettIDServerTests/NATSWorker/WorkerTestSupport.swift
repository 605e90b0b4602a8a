// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// Shared pieces of the worker tests: a fixed clock, test handlers and request bodies.
enum WorkerTestSupport {
    /// 2026-11-18T…: every response timestamp is 1_795_000_000_000.
    /// The worker's clock in these tests: it stands at ``timestamp``.
    static func fixedClock() -> ManualClock.Wall { ManualClock(start: Date(timeIntervalSince1970: 1_795_000_000)).wall }

    static let timestamp: Int64 = 1_795_000_000_000

    static func namespace(_ guid: String = UUID().uuidString.lowercased()) throws -> VaultNamespace {
        try VaultNamespace(userGUID: guid)
    }

    static func execute(_ handlerID: String, _ payload: JSONValue, id: String = "req-1") -> [UInt8] {
        VaultMessage.executeHandler(id: id, handlerID: handlerID, payload: payload, timestamp: timestamp).encoded()
    }

    static func status(id: String = "req-1") -> [UInt8] {
        VaultMessage.statusRequest(id: id, timestamp: timestamp).encoded()
    }

    static func eventTypes(id: String = "req-1") -> [UInt8] {
        VaultMessage.eventTypesRequest(id: id, timestamp: timestamp).encoded()
    }

    /// A status lookup answering `active` with 17 keys.
    static let activeStatus: VaultRequestProcessor.StatusLookup = { _ in ("active", 17) }

    /// A handler that throws an error whose text must never reach the app or the logs.
    struct ExplodingHandler: VaultHandler {
        struct Secret: Error, CustomStringConvertible {
            var description: String { "database password is hunter2" }
        }

        let id = "explode"
        let description = "Always fails."

        func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
            throw Secret()
        }
    }

    /// A handler that refuses with a code of its own.
    struct RefusingHandler: VaultHandler {
        let id = "refuse"
        let description = "Always refuses."

        func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
            throw VaultMessageError(.init(rawValue: "not_allowed"), "this member may not do that")
        }
    }

    /// A handler that sleeps for `milliseconds` from its payload, then answers with the payload.
    struct SlowHandler: VaultHandler {
        let id = "slow"
        let description = "Sleeps, then echoes."

        func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
            let milliseconds = payload["sleep_ms"]?.int64Value ?? 0
            try await Task.sleep(for: .milliseconds(milliseconds))
            return payload
        }
    }

    /// A handler that answers with the member GUID and request id of its context.
    struct WhoAmIHandler: VaultHandler {
        let id = "whoami"
        let description = "The caller's GUID."

        func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
            context.logger.debug("whoami answered")
            return .object([("user_guid", .string(context.userGUID)), ("request_id", .string(context.requestID))])
        }
    }

    /// The built-in handlers plus the test handlers above.
    static func registry(status: @escaping VaultRequestProcessor.StatusLookup = activeStatus) throws
        -> VaultHandlerRegistry
    {
        try VaultHandlerRegistry([
            EchoVaultHandler(limit: 1024), VaultInfoHandler(status: status), ExplodingHandler(), RefusingHandler(),
            SlowHandler(), WhoAmIHandler(),
        ])
    }

    static func processor(
        maxPayloadBytes: Int = 4096, status: @escaping VaultRequestProcessor.StatusLookup = activeStatus
    ) throws -> VaultRequestProcessor {
        VaultRequestProcessor(
            configuration: .init(maxPayloadBytes: maxPayloadBytes, workerID: "worker-test"),
            registry: try registry(status: status), status: status, clock: fixedClock())
    }
}
