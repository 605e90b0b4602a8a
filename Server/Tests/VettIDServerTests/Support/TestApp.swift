// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// A server over a fresh store of one engine, with fast Argon2 parameters and ephemeral keys.
struct TestApp {
    let components: ServerComponents
    let clock: OffsetClock

    static func configuration(port: Int = 0) -> ServerConfiguration {
        var configuration = ServerConfiguration(port: port)
        configuration.argon2 = .testing
        configuration.maxBodyBytes = 65_536
        return configuration
    }

    /// Runs `body` with the application of a fresh server, through HummingbirdTesting's `setup`.
    static func withApp(
        _ engine: TestEngine,
        setup: TestingSetup = .router,
        configuration: ServerConfiguration = TestApp.configuration(),
        logger: Logger = Logger(label: "test"),
        _ body: @escaping @Sendable (any TestClientProtocol, TestApp) async throws -> Void
    ) async throws {
        try await withTestStore(engine) { store in
            let clock = OffsetClock()
            let components = try await ServerComponents.make(
                configuration: configuration, store: store, keys: .ephemeral(), logger: logger, clock: clock
            )
            let app = try buildApplication(components: components)
            let testApp = TestApp(components: components, clock: clock)
            try await app.test(setup) { client in try await body(client, testApp) }
        }
    }
}

/// JSON helpers for requests and responses.
enum JSON {
    static func body(_ object: [String: Any]) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
    }

    static func object(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    static let headers: HTTPFields = [.contentType: "application/json"]
}

extension TestClientProtocol {
    /// POSTs a JSON object.
    func post(_ path: String, _ object: [String: Any], headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = JSON.headers
        fields.append(contentsOf: headers)
        return try await execute(uri: path, method: .post, headers: fields, body: JSON.body(object))
    }

    /// GETs `path` with a bearer token.
    func get(_ path: String, bearer: String? = nil, headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = headers
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        return try await execute(uri: path, method: .get, headers: fields)
    }

    /// Registers and logs in a member; returns the token response object.
    func registerAndLogin(email: String, password: String = "vivid-Otter-parsley-42") async throws -> [String: Any] {
        let registered = try await post("/auth/register", ["email": email, "password": password])
        guard registered.status == .created else { throw TestFailure("register failed: \(registered.status)") }
        let login = try await post("/auth/login", ["email": email, "password": password])
        guard login.status == .ok else { throw TestFailure("login failed: \(login.status)") }
        return JSON.object(login.body)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestResponse {
    /// The `error` code of a JSON error body.
    var errorCode: String? { JSON.object(body)["error"] as? String }
    var json: [String: Any] { JSON.object(body) }
}
