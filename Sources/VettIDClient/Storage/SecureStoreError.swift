// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A failure of a ``SecureStore``.
///
/// Stores never silently lose data: a file that cannot be decrypted or parsed is reported, never overwritten.
public struct SecureStoreError: CodedError {
    /// What went wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The key cannot open the store: it is not the key the store was written with.
        public static let wrongKey = Code(rawValue: "wrong_key")
        /// The store's content is damaged (bad header, failed authentication under the right key, bad payload).
        public static let corrupted = Code(rawValue: "corrupted")
        /// A file or directory operation failed (see ``SecureStoreError/underlying``).
        public static let io = Code(rawValue: "io")
        /// A key or store file is readable by other users.
        public static let insecurePermissions = Code(rawValue: "insecure_permissions")
        /// A key has the wrong size or format.
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// The platform keychain refused the operation (see ``SecureStoreError/status``).
        public static let keychain = Code(rawValue: "keychain")
        /// The process may not use the data protection keychain (`errSecMissingEntitlement`, -34018): it is not a
        /// signed app with a keychain entitlement, e.g. an unsigned command-line tool on macOS. Use an
        /// ``EncryptedFileSecureStore`` there (``VettID`` picks it for processes outside an app bundle).
        public static let missingEntitlement = Code(rawValue: "missing_entitlement")
    }

    /// The error code.
    public var code: Code
    /// What happened, without secret values.
    public var message: String
    /// The OS status (errno or `OSStatus`), if any.
    public var status: Int32?
    /// The underlying error, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, status: Int32? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.underlying = underlying
    }

    /// The code and the message.
    public var description: String {
        var text = "SecureStoreError(\(code.rawValue)): \(message)"
        if let status { text += " (status \(status))" }
        return text
    }
}
