// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The VettID reference backend.
public enum VettIDServerInfo {
    /// The server's product name, used in logs and the `Server` header.
    public static let name = "vettid-server"
    /// The server's version, reported by `GET /health`.
    public static let version = "0.1.0"
}
