// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import VettIDServer

/// Where openapi.yaml, the server and docs/protocol.md must say the same thing: each test holds one place an
/// outside client written from the documents found them disagreeing (issue 35, item 6).
@Suite struct ContractTests {
    static let spec = Result { try OpenAPIDocument() }

    static func schema(_ name: String) throws -> OpenAPIDocument {
        try #require(try spec.get().block("components", "schemas", name), "no schema \(name)")
    }

    static func natsConfiguration() -> ServerConfiguration {
        var configuration = VaultTest.configuration()
        configuration.nats = NATSConfiguration(
            url: "nats://127.0.0.1:9", publicURL: "tls://nats.example.com:4222", maxActiveTokensPerMember: 20,
            workerInstances: 0)
        return configuration
    }

    // MARK: NATS spaces

    @Test("NatsAccount requires every field the server always sends (all but nats_endpoint)")
    func natsAccountRequiresWhatIsAlwaysSent() async throws {
        let required = try #require(try Self.schema("NatsAccount").list("required"))
        try await TestApp.withApp(.sqlite, configuration: Self.natsConfiguration()) { client, _ in
            let tokens = try await client.registerAndLogin(email: "contract-nats@example.com")
            let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            let account = try await client.post("/vault/nats/account", [:], headers: bearer)
            #expect(account.status == .ok)
            #expect(Set(required) == Set(account.json.keys).subtracting(["nats_endpoint"]))
            #expect(Set(required).isSuperset(of: ["owner_space_id", "message_space_id", "status"]))
        }
    }

    @Test("the deploy answer names the spaces as the NATS account does, and sends what it requires")
    func deployNamesTheSpacesLikeTheNatsAccount() async throws {
        let deploy = try Self.schema("VaultDeployResponse")
        let required = Set(try #require(deploy.list("required")))
        #expect(required.isSuperset(of: ["owner_space_id", "message_space_id"]))
        #expect(deploy.block("properties", "owner_space") == nil && deploy.block("properties", "message_space") == nil)
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let tokens = try await client.registerAndLogin(email: "contract-deploy@example.com")
            let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            let code = try #require(
                try await client.post("/vault/invitations", [:], headers: bearer).json["code"] as? String)
            _ = try await client.enroll(GateTest.Device(), code: code)
            let deployed = try await client.post("/member/vault/deploy", [:], headers: bearer)
            #expect(deployed.status == .ok)
            #expect(Set(deployed.json.keys) == required)
        }
    }

    // MARK: Bound tokens sent as Bearer

    @Test("an enrollment or action token as Bearer without a proof is 401 invalid_token, as protocol.md §1 says")
    func aBoundDeviceTokenAsBearerIsInvalidToken() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, _) = try await client.startSession(device)
            let bearer: HTTPFields = [.authorization: "Bearer \(session.token)"]
            let steps: [(String, [String: Any])] = [
                (
                    "/vault/enroll/attestation",
                    [
                        "enrollment_session_id": session.id, "format": "development", "key_id": "k",
                        "development_token": "x",
                    ]
                ),
                (
                    "/vault/enroll/password",
                    [
                        "enrollment_session_id": session.id,
                        "encrypted_password": ["key_id": "k", "enc": "AAAA", "ciphertext": "AAAA"],
                    ]
                ),
                ("/vault/enroll/finalize", ["enrollment_session_id": session.id]),
                (
                    "/vault/auth/execute",
                    [
                        "action_id": "a", "credential_id": "c", "sealed_credential": "s", "key_version": 1,
                        "encrypted_password": ["key_id": "k", "enc": "AAAA", "ciphertext": "AAAA"],
                    ]
                ),
            ]
            for (path, body) in steps {
                let answer = try await client.post(path, body, headers: bearer)
                #expect(answer.status == .unauthorized, "\(path): \(answer.json)")
                #expect(answer.errorCode == "invalid_token", "\(path)")
                #expect(answer.headers[.wwwAuthenticate]?.hasPrefix("DPoP error=\"invalid_token\"") == true, "\(path)")
            }
            // With the DPoP scheme but no proof: the proof is what is missing.
            let unproven = try await client.post(
                "/vault/enroll/finalize", ["enrollment_session_id": session.id],
                headers: [.authorization: "DPoP \(session.token)"])
            #expect(unproven.status == .unauthorized)
            #expect(unproven.errorCode == "invalid_dpop_proof")
        }
        // The spec does not make the proof a precondition of these operations (it would be 400 before the token).
        let spec = try Self.spec.get()
        for path in [
            "/vault/enroll/attestation", "/vault/enroll/password", "/vault/enroll/finalize", "/vault/auth/execute",
        ] {
            let parameters = try #require(spec.block("paths", path, "post")).text
            #expect(parameters.contains("parameters/DPoPProof'"), "\(path)")
        }
    }

    // MARK: The DPoP header

    @Test("the DPoP header is constrained to a compact JWS in the spec, and an empty one is answered as documented")
    func theDPoPHeaderIsACompactJWS() async throws {
        let spec = try Self.spec.get()
        for name in ["DPoPProof", "DPoPProofRequired"] {
            let parameter = try #require(spec.block("components", "parameters", name))
            let schema = try #require(parameter.block("schema"))
            #expect(schema.value("minLength") == "1", "\(name)")
            #expect(schema.value("maxLength") == "4096", "\(name)")
            let pattern = try Regex(try #require(schema.value("pattern"), "\(name)"))
            let proof = try await GateTest.Device().proof("POST", "/token", nonce: "n")
            #expect(proof.wholeMatch(of: pattern) != nil, "\(name)")
            #expect("".wholeMatch(of: pattern) == nil && "a.b".wholeMatch(of: pattern) == nil, "\(name)")
            #expect(parameter.text.contains("invalid_dpop_proof"), "\(name): the answer is documented")
        }
        // The six operations that answered 400 invalid_dpop_proof to an empty header still do.
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let empty: HTTPFields = [.dpop: ""]
            let requests: [(String, [String: Any])] = [
                ("/auth/login", ["email": "nobody@example.com", "password": "vivid-Otter-parsley-42"]),
                ("/auth/refresh", ["refresh_token": "r"]),
                ("/vault/enroll/start", ["invitation_code": "ABCD-EFGH", "device_type": "ios"]),
                ("/vault/action/request", ["user_guid": "u", "credential_id": "c", "action": "authenticate"]),
                (
                    "/attest/register",
                    [
                        "key_id": "k", "attestation_object": "AAAA", "challenge": "c",
                        "device_key_jwk": GateTest.Device().jwk,
                    ]
                ),
                ("/token", ["grant_type": "urn:vettid:params:grant-type:development", "development_token": "x"]),
            ]
            for (path, body) in requests {
                let answer = try await client.post(path, body, headers: empty)
                #expect(answer.status == .badRequest, "\(path): \(answer.json)")
                #expect(answer.errorCode == "invalid_dpop_proof", "\(path)")
            }
        }
    }

    // MARK: Request bodies

    @Test("key_version has a documented maximum; beyond it, and beyond 64 bits, the error names the field")
    func keyVersionIsBounded() async throws {
        let keyVersion = try #require(
            try Self.schema("AuthExecuteRequest").block("properties", "key_version"))
        #expect(keyVersion.value("minimum") == "1")
        #expect(keyVersion.value("maximum") == "2147483647")
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            for value in ["12345678901234567890123", "2147483648", "0"] {
                let body = Data(
                    #"{"action_id":"a","credential_id":"c","sealed_credential":"s","key_version":\#(value),"encrypted_password":{"key_id":"k","enc":"AAAA","ciphertext":"AAAA"}}"#
                        .utf8)
                let answer = try await client.execute(
                    uri: "/vault/auth/execute", method: .post, headers: JSON.headers, body: ByteBuffer(bytes: body))
                #expect(answer.status == .badRequest, "\(value)")
                #expect(answer.errorCode == "invalid_request", "\(value)")
                let description = answer.json["error_description"] as? String ?? ""
                #expect(description.contains("`key_version`"), "\(value): \(description)")
            }
        }
    }

    @Test("an unknown field is named as unknown")
    func anUnknownFieldIsNamed() async throws {
        try await TestApp.withApp(.sqlite, configuration: TestApp.configuration()) { client, _ in
            let answer = try await client.post(
                "/auth/register",
                ["email": "fields@example.com", "password": "vivid-Otter-parsley-42", "firstName": "Ada"])
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "invalid_request")
            #expect(answer.json["error_description"] as? String == "unknown field `firstName`")
            let nested = try await client.post(
                "/vault/enroll/password",
                [
                    "enrollment_session_id": "s",
                    "encrypted_password": ["key_id": "k", "enc": "AAAA", "ciphertext": "AAAA", "extra": 1],
                ])
            #expect(nested.json["error_description"] as? String == "unknown field `encrypted_password.extra`")
        }
    }

    // MARK: Documented answers

    @Test("register documents weak_password and deploy documents 401 for a vault session token")
    func registerAndDeployDocumentTheirAnswers() async throws {
        let spec = try Self.spec.get()
        let register = try #require(spec.block("paths", "/auth/register", "post", "responses", "400"))
        #expect(register.text.contains("weak_password") && register.text.contains("reasons"))
        #expect(register.block("content", "application/json", "examples", "weak_password") != nil)
        let deploy = try #require(spec.block("paths", "/member/vault/deploy", "post", "responses", "401"))
        #expect(deploy.text.contains("invalid_token") && deploy.text.contains("vault session"))

        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let weak = try await client.post(
                "/auth/register", ["email": "weak@example.com", "password": "password1234"])
            #expect(weak.status == .badRequest)
            #expect(weak.errorCode == "weak_password")
            #expect((weak.json["reasons"] as? [String])?.isEmpty == false)
            #expect(weak.json["score"] is Int)

            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            let sessionToken = try #require(executed.json["session_token"] as? String)
            let deployed = try await client.post(
                "/member/vault/deploy", [:],
                headers: [
                    .authorization: "DPoP \(sessionToken)",
                    .dpop: try await device.proof("POST", "/member/vault/deploy", token: sessionToken, nonce: nonce),
                ])
            #expect(deployed.status == .unauthorized)
            #expect(deployed.errorCode == "invalid_token")
        }
    }
}
