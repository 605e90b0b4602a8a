// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The `echo` handler: returns its payload, for connectivity checks and benchmarks.

import VettIDCore
public import VettIDCrypto
import VettIDMessaging

/// `echo`: returns the payload unchanged; refuses payloads larger than ``limit`` serialized bytes with
/// `payload_too_large`.
public struct EchoVaultHandler: VaultHandler {
    /// The default ``limit``: 16 KiB.
    public static let defaultLimit = 16 * 1024

    public let id = VaultHandlerID.echo.rawValue
    public let description = "Returns the payload unchanged (connectivity check)."
    /// The largest payload returned, in serialized bytes.
    public let limit: Int

    public init(limit: Int = Self.defaultLimit) {
        self.limit = limit
    }

    public func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
        let size = payload.serialized().count
        guard size <= limit else {
            throw VaultMessageError(.payloadTooLarge, "echo returns at most \(limit) bytes of payload")
        }
        return payload
    }
}
