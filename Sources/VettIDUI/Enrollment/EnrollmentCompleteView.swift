// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The finished enrollment (seed 002's `EnrollmentCompleteView`).
    public struct EnrollmentCompleteView: View {
        let content: EnrollmentCompleteContent
        let perform: @MainActor (EnrollmentAction) -> Void

        /// Creates the view.
        public init(content: EnrollmentCompleteContent, perform: @escaping @MainActor (EnrollmentAction) -> Void) {
            self.content = content
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 16) {
                StatusBadgeView(content.badge)
                Text(content.message)
                    .fixedSize(horizontal: false, vertical: true)
                ForEach(content.rows) { row in
                    InfoRow(row)
                }
                ScreenActionButton(content.done, perform: perform)
            }
        }
    }
#endif
