// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    extension Tone {
        /// The semantic system colour of the tone: it adapts to dark mode and increased contrast.
        public var color: Color {
            switch self {
            case .neutral: .secondary
            case .positive: .green
            case .busy: .accentColor
            case .caution: .orange
            case .critical: .red
            }
        }
    }
#endif
