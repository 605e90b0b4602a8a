// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Types and client generated from `openapi.yaml`; regenerate with `scripts/generate-openapi`.
public enum VettIDAPIInfo {
    /// The API version this module was generated from.
    public static let version = "1.0.0"
}
