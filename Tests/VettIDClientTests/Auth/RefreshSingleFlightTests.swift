// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDAPI
import VettIDCore

@testable import VettIDClient

@Suite("Refresh on 401 (single flight)")
struct RefreshSingleFlightTests {
    /// A fake server: `/auth/me` accepts only `Bearer access-2`; `/auth/refresh` answers slowly with access-2.
    func makeServer(refreshAnswer: @escaping @Sendable () -> (HTTPResponse, HTTPBody?)) -> FakeTransport {
        FakeTransport { request in
            switch request.path {
            case "/auth/me":
                if request.headers[.authorization] == "Bearer access-2" { return jsonResponse(.ok, userJSON()) }
                return errorResponse(
                    .unauthorized, code: "invalid_token", headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
            case "/auth/refresh":
                try await Task.sleep(for: .milliseconds(100))
                return refreshAnswer()
            default:
                return errorResponse(.notFound, code: "not_found")
            }
        }
    }

    @Test("N concurrent 401s cause exactly one refresh, then every request succeeds with the new token")
    func singleFlight() async throws {
        let transport = makeServer { jsonResponse(.ok, tokenResponseJSON(access: "access-2", refresh: "refresh-2")) }
        let store = InMemorySecureStore()
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let session = TokenSession(store: store, refresher: APIClient.makeRefresher(configuration: configuration))
        try await session.update(sessionTokens(access: "access-1", refresh: "refresh-1"))
        let client = APIClient(configuration: configuration, session: session)

        let emails = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<25 {
                group.addTask {
                    let output = try await client.perform { try await $0.getCurrentUser() }
                    return AuthenticatedUser(try output.ok.body.json).email
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(emails.count == 25)
        #expect(emails.allSatisfy { $0 == "member@example.com" })
        #expect(await transport.log.count(path: "/auth/refresh") == 1)
        #expect(await session.refreshesStarted == 1)
        #expect(await session.current?.accessToken == "access-2")
        #expect(await session.current?.refreshToken == "refresh-2")
        // The rotated tokens are persisted.
        let restored = TokenSession(store: store)
        #expect(try await restored.restore()?.refreshToken == "refresh-2")
        // The refresh request carried the old refresh token and no Authorization header.
        let refreshRequest = try #require(await transport.log.requests.first { $0.path == "/auth/refresh" })
        #expect(String(decoding: refreshRequest.body, as: UTF8.self).contains("refresh-1"))
        #expect(refreshRequest.headers[.authorization] == nil)
    }

    @Test("a late 401 for an already replaced token does not refresh again")
    func lateRejection() async throws {
        let transport = makeServer { jsonResponse(.ok, tokenResponseJSON(access: "access-2", refresh: "refresh-2")) }
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let session = TokenSession(
            store: InMemorySecureStore(), refresher: APIClient.makeRefresher(configuration: configuration))
        try await session.update(sessionTokens(access: "access-1", refresh: "refresh-1"))
        _ = try await session.refresh(rejectedAccessToken: "access-1")
        let again = try await session.refresh(rejectedAccessToken: "access-1")
        #expect(again.accessToken == "access-2")
        #expect(await transport.log.count(path: "/auth/refresh") == 1)
    }

    @Test("invalid_grant on refresh fails every waiter once and clears the stored session")
    func invalidGrantClears() async throws {
        let transport = makeServer { errorResponse(.badRequest, code: "invalid_grant", description: "reused") }
        let store = InMemorySecureStore()
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let session = TokenSession(store: store, refresher: APIClient.makeRefresher(configuration: configuration))
        try await session.update(sessionTokens(access: "access-1", refresh: "refresh-1"))
        let client = APIClient(configuration: configuration, session: session)

        let codes = await withTaskGroup(of: APIError.Code?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await client.perform { try await $0.getCurrentUser() }
                        return nil
                    } catch let error as APIError {
                        return error.code
                    } catch {
                        return nil
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(codes.count == 10)
        #expect(codes.allSatisfy { $0 == APIError.Code.invalidGrant })
        #expect(await transport.log.count(path: "/auth/refresh") == 1)
        #expect(await session.current == nil)
        #expect(try await store.data(forKey: session.storageKey) == nil)
    }

    @Test("without a session, a 401 is returned as is and nothing refreshes")
    func noSession() async throws {
        let transport = makeServer { jsonResponse(.ok, tokenResponseJSON(access: "access-2", refresh: "refresh-2")) }
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let client = APIClient(configuration: configuration, session: TokenSession(store: InMemorySecureStore()))
        await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.getCurrentUser() }
        }
        #expect(await transport.log.count(path: "/auth/refresh") == 0)
        #expect(await transport.log.requests.first?.headers[.authorization] == nil)
    }
}

@Suite("Refresh on 401 (replay)")
struct RefreshReplayTests {
    @Test("a POST with a JSON body refused with 401 is replayed once, with the same body and the new token")
    func postReplayed() async throws {
        let transport = FakeTransport { request in
            switch request.path {
            case "/vault/invitations":
                guard request.headers[.authorization] == "Bearer access-2" else {
                    return errorResponse(.unauthorized, code: "invalid_token")
                }
                return jsonResponse(
                    .created,
                    #"{"code":"K7QM-3XPA","status":"pending","created_at":"2026-01-01T00:00:00Z","expires_at":"2026-01-02T00:00:00Z","qr_payload":"vettid://enroll?code=K7QM-3XPA&api=http%3A%2F%2F127.0.0.1%3A9"}"#
                )
            case "/auth/refresh":
                return jsonResponse(.ok, tokenResponseJSON(access: "access-2", refresh: "refresh-2"))
            default:
                return errorResponse(.notFound, code: "not_found")
            }
        }
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let session = TokenSession(
            store: InMemorySecureStore(), refresher: APIClient.makeRefresher(configuration: configuration))
        try await session.update(sessionTokens(access: "access-1", refresh: "refresh-1"))
        let client = APIClient(configuration: configuration, session: session)
        let output = try await client.perform {
            try await $0.createInvitation(body: .json(.init(expiresIn: 3600, label: "phone")))
        }
        #expect(try output.created.body.json.code == "K7QM-3XPA")
        let posts = await transport.log.requests.filter { $0.path == "/vault/invitations" }
        #expect(posts.count == 2)
        #expect(posts[0].body == posts[1].body)
        #expect(posts.map { $0.headers[.authorization] } == ["Bearer access-1", "Bearer access-2"])
        #expect(await transport.log.count(path: "/auth/refresh") == 1)
    }

    @Test("a second 401 after the refresh is returned, not looped")
    func noLoop() async throws {
        let transport = FakeTransport { request in
            switch request.path {
            case "/auth/refresh": return jsonResponse(.ok, tokenResponseJSON(access: "access-2", refresh: "refresh-2"))
            default: return errorResponse(.unauthorized, code: "invalid_token")
            }
        }
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL, transport: transport, retryPolicy: .disabled)
        let session = TokenSession(
            store: InMemorySecureStore(), refresher: APIClient.makeRefresher(configuration: configuration))
        try await session.update(sessionTokens(access: "access-1", refresh: "refresh-1"))
        let client = APIClient(configuration: configuration, session: session)
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.getCurrentUser() }
        }
        #expect(error?.code == .invalidToken)
        #expect(await transport.log.count(path: "/auth/me") == 2)
        #expect(await transport.log.count(path: "/auth/refresh") == 1)
    }
}
