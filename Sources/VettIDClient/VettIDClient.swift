// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDAPI

/// The SDK facade's version, equal to the HTTP contract it speaks.
public enum VettIDSDK {
    /// The API version of the generated client.
    public static let apiVersion = VettIDAPIInfo.version
}
