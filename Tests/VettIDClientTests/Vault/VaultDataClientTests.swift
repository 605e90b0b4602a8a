// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging

/// `vettid.vault.secrets` and `vettid.vault.profile` over the attached connection: the handler and payload each call
/// sends, checks made before sending, the vault's refusals passed through as they came, and no connection attached.
@Suite struct VaultDataClientTests {
    /// Records what it is asked and answers from a script (a fake of the transport: what is tested is the client).
    final class Caller: VaultHandlerCalling, @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [(VaultHandlerID, JSONValue)] = []
        let answer: @Sendable (VaultHandlerID, JSONValue) throws(VaultMessageError) -> JSONValue

        init(answer: @escaping @Sendable (VaultHandlerID, JSONValue) throws(VaultMessageError) -> JSONValue) {
            self.answer = answer
        }

        func execute(_ handler: VaultHandlerID, payload: JSONValue) async throws(VaultMessageError) -> JSONValue {
            lock.withLock { recorded.append((handler, payload)) }
            return try answer(handler, payload)
        }

        var calls: [(VaultHandlerID, JSONValue)] { lock.withLock { recorded } }
    }

    static func service() throws -> VaultService {
        let store = InMemorySecureStore()
        return VaultService(
            configuration: try VaultServiceConfiguration(baseURL: URL(string: "https://vault.example")!),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store), attester: DevelopmentTokenAttester(token: "t"),
            store: store)
    }

    @Test func withoutAConnectionEveryCallIsVaultUnavailable() async throws {
        let vault = try Self.service()
        let error = await #expect(throws: VaultMessageError.self) { try await vault.secrets.list() }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("natsManager") == true)
    }

    @Test func putSendsTheOperationsRequestAndReadsItsResult() async throws {
        let vault = try Self.service()
        let caller = Caller { _, _ in
            .object([
                ("name", .string("pin")), ("version", .integer(1)), ("size", .integer(4)), ("updated_at", .integer(9)),
            ])
        }
        vault.handlerLink.attach(caller)
        let summary = try await vault.secrets.put(name: "pin", string: "2468", expectedVersion: 0)
        #expect(summary == SecretSummary(name: "pin", version: 1, size: 4, updatedAt: 9))
        let sent = caller.calls
        #expect(sent.count == 1)
        #expect(sent.first?.0 == SecretPutOperation.handlerID)
        #expect(
            sent.first?.1
                == (try SecretPutRequest(name: "pin", value: Data("2468".utf8), expectedVersion: 0).vaultPayload()))
    }

    @Test func aBadNameOrAnOversizedValueIsRefusedWithoutARoundTrip() async throws {
        let vault = try Self.service()
        let caller = Caller { _, _ in .null }
        vault.handlerLink.attach(caller)
        let name = await #expect(throws: VaultMessageError.self) { try await vault.secrets.get(name: " padded") }
        #expect(name?.code == .invalidSecretName)
        let size = await #expect(throws: VaultMessageError.self) {
            try await vault.secrets.put(name: "big", value: Data(count: 16 * 1024 + 1))
        }
        #expect(size?.code == .secretTooLarge)
        let field = await #expect(throws: VaultMessageError.self) {
            try await vault.profile.update(set: ["Not A Field": "x"])
        }
        #expect(field?.code == .invalidProfile)
        #expect(caller.calls.isEmpty)
    }

    @Test func theVaultsRefusalComesThroughAsItWasSent() async throws {
        let vault = try Self.service()
        vault.handlerLink.attach(
            Caller { _, _ throws(VaultMessageError) in
                throw VaultMessageError(.vaultAuthenticationRequired, "authenticate first")
            })
        let error = await #expect(throws: VaultMessageError.self) { try await vault.secrets.get(name: "pin") }
        #expect(error?.code == .vaultAuthenticationRequired)
    }

    @Test func anAnswerOfTheWrongShapeIsInvalidPayload() async throws {
        let vault = try Self.service()
        vault.handlerLink.attach(Caller { _, _ in .object([("fields", .string("not a map"))]) })
        let error = await #expect(throws: VaultMessageError.self) { try await vault.profile.get() }
        #expect(error?.code == .invalidPayload)
        vault.handlerLink.detach()
        let detached = await #expect(throws: VaultMessageError.self) { try await vault.profile.get() }
        #expect(detached?.code == .unavailable)
    }
}
