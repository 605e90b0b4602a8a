// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What runs a vault handler for the app: the SDK's NATS connection manager, or a test's fake.

public import VettIDCore
public import VettIDCrypto

/// Runs a handler in the member's vault and returns its result: the SDK's NATS connection manager does it over
/// the sealed session. ``call(_:_:)`` is the typed form the SDK's vault clients use.
public protocol VaultHandlerCalling: Sendable {
    /// Runs `handler` with `payload` and returns its result.
    /// - Throws: `VaultMessageError`: the vault's refusal as it sent it (`secret_not_found`,
    ///   `vault_authentication_required`, …), or `vault_unavailable` when the vault could not be reached (its
    ///   `underlying` is the transport's error).
    func execute(_ handler: VaultHandlerID, payload: JSONValue) async throws(VaultMessageError) -> JSONValue
}

extension VaultHandlerCalling {
    /// Runs `operation`'s handler with `request` and reads its result.
    /// - Throws: `VaultMessageError`: those of ``execute(_:payload:)``, and `invalid_payload` when the answer is
    ///   not the operation's result.
    public func call<Operation: VaultOperation>(_ operation: Operation.Type, _ request: Operation.Request)
        async throws(VaultMessageError) -> Operation.Result
    {
        let json = try await execute(Operation.handlerID, payload: try request.vaultPayload())
        return try Operation.Result(vaultPayload: json)
    }
}
