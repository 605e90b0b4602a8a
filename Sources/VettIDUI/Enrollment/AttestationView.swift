// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// A running enrollment (seed 002's `AttestationView`): the progress bar and the four steps with their status.
    public struct AttestationView: View {
        let content: EnrollmentProgressContent

        /// Creates the view.
        public init(content: EnrollmentProgressContent) {
            self.content = content
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 16) {
                Text(content.title)
                    .font(.title2)
                ProgressView(value: content.fraction) {
                    Text(content.message)
                }
                .accessibilityValue(Text(content.accessibilityValue))
                VStack(alignment: .leading, spacing: 8) {
                    ForEach(content.steps) { step in
                        Label {
                            Text(step.label)
                        } icon: {
                            Image(systemName: step.symbolName)
                                .foregroundStyle(step.tone.color)
                        }
                        .accessibilityElement(children: .ignore)
                        .accessibilityLabel(Text(step.accessibilityLabel))
                    }
                }
            }
        }
    }
#endif
