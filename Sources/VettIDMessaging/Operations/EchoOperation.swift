// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCrypto

/// `echo`: returns the payload unchanged: a connectivity check, answered sealed or plaintext.
public enum EchoOperation: VaultOperation {
    public typealias Request = JSONValue
    public typealias Result = JSONValue
    public static let handlerID = VaultHandlerID.echo
    public static let summary = "Returns the payload unchanged (connectivity check)."
    public static let requestShape = "any JSON value, at most 16 KiB serialized"
    public static let resultShape = "the request's value"
    public static let isSealedOnly = false
}
