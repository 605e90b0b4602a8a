// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``ConfigurationError``.
public enum ConfigurationErrorDomain: ErrorDomain {}

/// A configuration value that the SDK refuses.
public typealias ConfigurationError = DomainError<ConfigurationErrorDomain>

extension ConfigurationError.Code {
    /// The base URL has no `http` or `https` scheme, or no host.
    public static let invalidBaseURL = Self(rawValue: "invalid_base_url")
}
