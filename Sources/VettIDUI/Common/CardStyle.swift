// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    import SwiftUI

    extension View {
        /// The frame of every card and banner: padding on a rounded material background (adapts to dark mode).
        func cardStyle() -> some View {
            padding()
                .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 12))
        }
    }
#endif
