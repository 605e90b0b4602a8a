// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
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

    @Test func theServersHandlersAreTheSharedOperationsInOrder() async throws {
        try await withTestStore(.sqlite) { store in
            let registry = try VaultHandlerRegistry.server(
                VaultHandlerServices(
                    store: store, status: WorkerTestSupport.activeStatus, clock: SystemWallClock(),
                    sealingKeys: SealingKeys(ring: .original, keys: .ephemeral())))
            let operations: [any VaultOperation.Type] = [
                EchoOperation.self, VaultInfoOperation.self, SecretPutOperation.self, SecretGetOperation.self,
                SecretListOperation.self, SecretDeleteOperation.self, ProfileGetOperation.self,
                ProfileUpdateOperation.self,
            ]
            #expect(registry.ids == operations.map { $0.handlerID.rawValue })
            // The catalogue is the operations' own entries: id, description, shapes and the sealed-only flag.
            #expect(registry.eventTypes == operations.map { $0.eventType })
            #expect(registry.eventTypes.filter { !$0.sealedOnly }.map(\.handlerID) == ["echo"])
            #expect(registry.handler(for: "echo") is EchoVaultHandler)
            #expect(registry.handler(for: "vault.info") is VaultInfoHandler)
            #expect(registry.handler(for: "Echo") == nil)
        }
    }

    /// A server's handler is made from the services it names: `vault.info` answers from the status lookup given.
    @Test func theServersHandlersAreMadeFromTheServicesGiven() async throws {
        try await withTestStore(.sqlite) { store in
            let services = VaultHandlerServices(
                store: store, status: { _ in ("enrolled", 3) }, clock: SystemWallClock(),
                sealingKeys: SealingKeys(ring: .original, keys: .ephemeral()))
            let info = try #require(try VaultHandlerRegistry.server(services).handler(for: "vault.info"))
            let context = VaultHandlerContext(
                namespace: try WorkerTestSupport.namespace(), requestID: "r",
                logger: LogCapture().logger(label: "worker-test"))
            guard case .object(let members) = try await info.handle(.object([]), context: context) else {
                Issue.record("vault.info answered something other than an object")
                return
            }
            #expect(members.first { $0.0 == "vault_status" }?.1 == .string("enrolled"))
            #expect(members.first { $0.0 == "transaction_keys_remaining" }?.1 == .integer(3))
        }
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
