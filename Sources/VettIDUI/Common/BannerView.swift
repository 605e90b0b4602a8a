#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// A message in its tone's colour with the action that can help.
    public struct BannerView<Kind: Sendable & Hashable>: View {
        let banner: BannerContent<Kind>
        let perform: @MainActor (Kind) -> Void

        /// Creates the banner; `perform` receives the action's kind.
        public init(_ banner: BannerContent<Kind>, perform: @escaping @MainActor (Kind) -> Void) {
            self.banner = banner
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 12) {
                Text(banner.message)
                    .foregroundStyle(banner.tone.color)
                    .fixedSize(horizontal: false, vertical: true)
                if let action = banner.action {
                    ScreenActionButton(action, perform: perform)
                }
            }
            .padding()
            .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 12))
            .accessibilityElement(children: .contain)
        }
    }
#endif
