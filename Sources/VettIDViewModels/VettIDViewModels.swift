// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDClient

/// View models for VettID screens; each wraps a pure state machine.
public enum VettIDViewModelsInfo {
    /// The SDK version the view models are built against.
    public static let apiVersion = VettIDSDK.apiVersion
}
