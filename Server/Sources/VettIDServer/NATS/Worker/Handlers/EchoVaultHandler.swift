// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The `echo` handler: returns its payload, for connectivity checks and benchmarks.

import VettIDCore
public import VettIDCrypto
public import VettIDMessaging

/// `echo`: returns the payload unchanged; refuses payloads larger than ``limit`` serialized bytes with
/// `payload_too_large`.
public struct EchoVaultHandler: VaultOperationHandler {
    public typealias Operation = EchoOperation

    /// The default ``limit``: 16 KiB.
    public static let defaultLimit = 16 * 1024

    /// The largest payload returned, in serialized bytes.
    public let limit: Int

    public init(limit: Int = Self.defaultLimit) {
        self.limit = limit
    }

    public func respond(to payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
        let size = payload.serialized().count
        guard size <= limit else {
            throw VaultMessageError(.payloadTooLarge, "echo returns at most \(limit) bytes of payload")
        }
        return payload
    }
}
