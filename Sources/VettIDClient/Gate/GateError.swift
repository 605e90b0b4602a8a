// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDCore

/// A failure of a ``GateClient`` call.
///
/// Server answers keep their status, body and error code; network failures, attestation failures and device-key
/// failures have their own codes. The description never contains tokens, proofs, challenges or key ids.
public struct GateError: CodedError {
    /// What went wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The Gate (or, for proxied requests, the upstream) answered with a non-2xx status; see
        /// ``GateError/status``, ``GateError/body`` and ``GateError/serverCode``.
        public static let server = Code(rawValue: "server_error")
        /// No answer arrived (connection refused, timeout, cancelled).
        public static let network = Code(rawValue: "network_error")
        /// The device could not attest its key or sign an assertion; see ``GateError/attestationCode``.
        public static let attestation = Code(rawValue: "attestation_failed")
        /// The device key could not be created, loaded or used.
        public static let deviceKey = Code(rawValue: "device_key_failed")
        /// The Gate answered with something the client cannot use (for example a token that is not DPoP-bound).
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// The request given to the client is invalid (for example a proxy path with a scheme).
        public static let invalidRequest = Code(rawValue: "invalid_request")
    }

    /// The error code.
    public var code: Code
    /// The HTTP status, for ``Code/server``.
    public var status: Int?
    /// The response body (up to the configured limit), for ``Code/server``.
    public var body: Data?
    /// The `error` of the server's JSON error body, when there is one (for example `use_dpop_nonce`).
    public var serverCode: APIError.Code?
    /// For ``Code/attestation``: the attester's code (for example `invalid_key`).
    public var attestationCode: DeviceAttestationError.Code?
    /// What happened.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        status: Int? = nil,
        body: Data? = nil,
        serverCode: APIError.Code? = nil,
        attestationCode: DeviceAttestationError.Code? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.body = body
        self.serverCode = serverCode
        self.attestationCode = attestationCode
        self.underlying = underlying
    }

    /// The code, status, server code and message (never the body, which may hold upstream data).
    public var description: String {
        var text = "GateError(\(code.rawValue)"
        if let status { text += ", status \(status)" }
        if let serverCode { text += ", \(serverCode.rawValue)" }
        if let attestationCode { text += ", \(attestationCode.rawValue)" }
        return text + "): \(message)"
    }
}

extension GateError {
    /// Wraps an attester failure.
    init(_ error: DeviceAttestationError) {
        self.init(code: .attestation, message: error.message, attestationCode: error.code, underlying: error)
    }

    /// Wraps a device-key failure.
    init(_ error: DeviceKeyError) {
        self.init(code: .deviceKey, message: error.message, underlying: error)
    }
}
