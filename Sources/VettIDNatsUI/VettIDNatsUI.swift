// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// VettIDNatsUI: the messaging status view over VettIDNatsViewModels. Every view file is behind
// `#if canImport(SwiftUI)`; on other platforms this module is empty.
