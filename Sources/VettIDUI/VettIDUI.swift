// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// VettIDUI: SwiftUI screens over VettIDViewModels' presentation values. Every view file is behind
// `#if canImport(SwiftUI)`; on other platforms this module is empty.
