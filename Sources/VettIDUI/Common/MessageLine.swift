// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// One line of text marked by a tone's symbol in the tone's colour (a field error, a warning); the text keeps
    /// the primary colour, for contrast, and wraps at every Dynamic Type size.
    public struct MessageLine: View {
        let text: String
        let tone: Tone

        /// Creates the line.
        public init(_ text: String, tone: Tone) {
            self.text = text
            self.tone = tone
        }

        public var body: some View {
            Label {
                Text(text)
                    .font(.footnote)
                    .fixedSize(horizontal: false, vertical: true)
            } icon: {
                Image(systemName: tone.symbolName)
                    .foregroundStyle(tone.color)
                    .accessibilityHidden(true)
            }
        }
    }
#endif
