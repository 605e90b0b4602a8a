// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDNats
    public import VettIDNatsViewModels
    import VettIDUI
    import VettIDViewModels

    /// The messaging status line (seed 000's `NatsConnectionStatusView`): a dot or a spinner and a short text for
    /// every set-up and connection state, with Try Again or Sign In when they help; nothing before set-up starts.
    public struct NatsConnectionStatusView: View {
        let content: NatsConnectionStatusContent
        let perform: @MainActor (NatsConnectionStatusContent.ActionKind) -> Void

        /// Creates the line from a presentation.
        public init(
            content: NatsConnectionStatusContent,
            perform: @escaping @MainActor (NatsConnectionStatusContent.ActionKind) -> Void
        ) {
            self.content = content
            self.perform = perform
        }

        /// Creates the line for a set-up view model (and its connection manager, once set up); Sign In calls `onSignIn`.
        public init(
            setup: NatsSetupViewModel, connection: NatsConnectionManager? = nil,
            onSignIn: @escaping @MainActor () -> Void
        ) {
            self.content = NatsConnectionStatusContent(
                setup: setup.state, connection: connection?.state, mailboxArrivals: connection?.mailboxArrivals ?? 0)
            self.perform = { kind in
                switch kind {
                case .retry: Task { await setup.retry() }
                case .signIn: onSignIn()
                }
            }
        }

        public var body: some View {
            // Before set-up starts the line is not shown at all (no empty list row).
            if content.isVisible {
                HStack(spacing: 8) {
                    switch content.indicator {
                    case .hidden:
                        EmptyView()
                    case .progress:
                        ProgressView()
                            .controlSize(.small)
                    case .dot(let tone):
                        Circle()
                            .fill(tone.color)
                            .frame(width: 8, height: 8)
                    }
                    Text(content.text)
                        .font(.caption)
                        .fixedSize(horizontal: false, vertical: true)
                    if let action = content.action {
                        Button(action.title) { perform(action.kind) }
                            .font(.caption)
                            .disabled(!action.isEnabled)
                    }
                }
                .accessibilityElement(children: .combine)
                .accessibilityLabel(Text(content.accessibilityLabel))
            }
        }
    }
#endif
