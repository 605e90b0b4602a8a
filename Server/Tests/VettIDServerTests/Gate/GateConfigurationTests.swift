// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDAttestation
import VettIDVerification

@testable import VettIDServer

/// The `gate_*` configuration keys.
@Suite struct GateConfigurationTests {
    @Test func gateKeysLoadFromTheEnvironment() throws {
        let configuration = try ConfigurationLoader().load(environment: [
            "VETTID_GATE_APP_ID": "ABCDE12345.com.example.app",
            "VETTID_GATE_ENVIRONMENTS": "production, development",
            "VETTID_GATE_DEVELOPMENT_TOKENS": "aaaaaaaaaaaaaaaa1,bbbbbbbbbbbbbbbb2",
            "VETTID_GATE_TOKEN_TTL_SECONDS": "120",
            "VETTID_GATE_UPSTREAMS": "ai=https://ai.example.com/v1,plain=http://127.0.0.1:9000",
            "VETTID_GATE_UPSTREAM_API_KEYS": "ai=Authorization: Bearer sk-secret",
            "VETTID_GATE_PROXY_MAX_BODY_BYTES": "2048",
            "VETTID_GATE_UPSTREAM_CONNECT_TIMEOUT_SECONDS": "3",
            "VETTID_GATE_UPSTREAM_READ_TIMEOUT_SECONDS": "40",
        ])
        let gate = configuration.gate
        #expect(gate.appID == "ABCDE12345.com.example.app")
        #expect(gate.allowedEnvironments == [.production, .development])
        #expect(gate.developmentTokens == ["aaaaaaaaaaaaaaaa1", "bbbbbbbbbbbbbbbb2"])
        #expect(gate.tokenLifetime == .seconds(120))
        #expect(
            gate.upstreams["ai"]
                == GateUpstream(
                    baseURL: "https://ai.example.com/v1", apiKeyHeader: "Authorization", apiKey: "Bearer sk-secret"))
        #expect(gate.upstreams["plain"] == GateUpstream(baseURL: "http://127.0.0.1:9000"))
        #expect(gate.proxyMaxBodyBytes == 2048)
        #expect(gate.upstreamConnectTimeout == .seconds(3))
        #expect(gate.upstreamReadTimeout == .seconds(40))
        #expect(gate.trustSoftwareRoot == false)
        // Descriptions never show secrets.
        #expect(!"\(gate)".contains("sk-secret"))
        #expect(!"\(gate)".contains("aaaaaaaaaaaaaaaa1"))
        #expect(!"\(gate.upstreams["ai"]!)".contains("sk-secret"))
    }

    @Test func badGateValuesAreErrorsNamingTheKey() {
        let cases: [(String, String)] = [
            ("VETTID_GATE_APP_ID", "com.example.app"),
            ("VETTID_GATE_ENVIRONMENTS", "staging"),
            ("VETTID_GATE_TRUST_SOFTWARE_ROOT", "maybe"),
            ("VETTID_GATE_SOFTWARE_ROOT_PEM_FILE", "/nonexistent/root.pem"),
            ("VETTID_GATE_DEVELOPMENT_TOKENS", "short"),
            ("VETTID_GATE_UPSTREAMS", "ai=ftp://example.com"),
            ("VETTID_GATE_UPSTREAMS", "ai=http://user@example.com"),
            ("VETTID_GATE_UPSTREAMS", "ai=http://example.com:99999"),
            ("VETTID_GATE_UPSTREAM_API_KEYS", "ai=no-header-separator"),
        ]
        for (name, value) in cases {
            #expect(throws: ConfigurationLoader.Invalid.self, "\(name)=\(value)") {
                try ConfigurationLoader().load(environment: [name: value])
            }
        }
        // An API key for an upstream that is not defined.
        #expect(throws: ConfigurationLoader.Invalid.self) {
            try ConfigurationLoader().load(environment: ["VETTID_GATE_UPSTREAM_API_KEYS": "ghost=X-Key: abc"])
        }
    }

    @Test func theSoftwareRootLoadsFromAPEMFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gate-root-\(UUID().uuidString).pem")
            .path
        try AppleAppAttestationRoot.pem.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try ConfigurationLoader().load(environment: [
            "VETTID_GATE_SOFTWARE_ROOT_PEM_FILE": path, "VETTID_GATE_TRUST_SOFTWARE_ROOT": "true",
        ])
        #expect(configuration.gate.softwareRoots.count == 1)
        #expect(configuration.gate.trustSoftwareRoot)
    }
}
