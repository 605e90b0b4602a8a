// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1

/// Creates the members whose invitations the enrollment phase redeems: `POST /auth/register`, `POST /auth/login`,
/// then `POST /vault/invitations` with the access token, once per device to enroll.
struct BenchMembers: Sendable {
    let client: HTTPClient
    let baseURL: String
    /// Makes the e-mail addresses unique per run (a PostgreSQL database may hold earlier runs' members).
    let runID: String

    static let memberPassword = "vivid-Otter-parsley-42"

    /// Registers and logs in member `index`, then returns the QR payloads of `invitations` new invitations.
    func invitations(member index: Int, count invitations: Int) async throws -> [String] {
        let credentials = Credentials(email: "vaultbench-\(runID)-\(index)@example.com", password: Self.memberPassword)
        _ = try await post("/auth/register", credentials)
        let login = try JSONDecoder().decode(LoginAnswer.self, from: try await post("/auth/login", credentials))
        var payloads: [String] = []
        for _ in 0..<invitations {
            let data = try await post("/vault/invitations", Empty(), bearer: login.accessToken)
            payloads.append(try JSONDecoder().decode(InvitationAnswer.self, from: data).qrPayload)
        }
        return payloads
    }

    private func post(_ path: String, _ body: some Encodable, bearer: String? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer " + bearer) }
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await client.execute(request, timeout: .seconds(300))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(response.status.code) else {
            throw BenchFailure("POST \(path) answered \(response.status.code): \(String(buffer: bytes).prefix(300))")
        }
        return Data(Array(buffer: bytes))
    }

    private struct Credentials: Encodable {
        let email: String
        let password: String
    }

    private struct Empty: Encodable {}

    private struct LoginAnswer: Decodable {
        let accessToken: String
        enum CodingKeys: String, CodingKey { case accessToken = "access_token" }
    }

    private struct InvitationAnswer: Decodable {
        let qrPayload: String
        enum CodingKeys: String, CodingKey { case qrPayload = "qr_payload" }
    }
}
