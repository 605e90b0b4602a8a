// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// The handler registry is built once and refuses ids an execute request could not name unambiguously.
@Suite struct NATSWorkerRegistryTests {
    @Test func duplicateIDsAreRefused() throws {
        let error = #expect(throws: VaultWorkerError.self) {
            try VaultHandlerRegistry([EchoVaultHandler(), WorkerTestSupport.SlowHandler(), EchoVaultHandler(limit: 1)])
        }
        #expect(error?.code == .duplicateHandlerID)
        #expect(error?.message.contains("echo") == true)
    }

    @Test func idsAnExecuteRequestCannotNameAreRefused() throws {
        struct Named: VaultHandler {
            let id: String
            let description = "test"
            func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue { payload }
        }
        for id in ["", String(repeating: "h", count: 129)] {
            let error = #expect(throws: VaultWorkerError.self) { try VaultHandlerRegistry([Named(id: id)]) }
            #expect(error?.code == .invalidHandlerID)
        }
        #expect(try VaultHandlerRegistry([Named(id: String(repeating: "h", count: 128))]).ids.count == 1)
    }

    @Test func builtInHandlersAreEchoAndVaultInfoInOrder() {
        let registry = VaultHandlerRegistry.builtIn(status: WorkerTestSupport.activeStatus)
        #expect(registry.ids == ["echo", "vault.info"])
        #expect(registry.eventTypes.map(\.handlerID) == ["echo", "vault.info"])
        #expect(registry.handler(for: "echo") is EchoVaultHandler)
        #expect(registry.handler(for: "vault.info") is VaultInfoHandler)
        #expect(registry.handler(for: "Echo") == nil)
    }

    @Test func echoReturnsThePayloadUpToItsLimit() async throws {
        let echo = EchoVaultHandler(limit: 10)
        let context = VaultHandlerContext(
            namespace: try WorkerTestSupport.namespace(), requestID: "r",
            logger: LogCapture().logger(label: "worker-test"))
        // 10 bytes with quotes
        #expect(try await echo.handle(.string("12345678"), context: context) == .string("12345678"))
        let error = await #expect(throws: VaultMessageError.self) {
            try await echo.handle(.string("123456789"), context: context)
        }
        #expect(error?.code == .payloadTooLarge)
    }
}
