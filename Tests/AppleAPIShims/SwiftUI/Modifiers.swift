// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// View modifiers (each `nonisolated … -> some View` as on its page).

#if canImport(UIKit)
    public import UIKit
#endif

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/padding(_:_:)
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/font(_:)
    nonisolated public func font(_ font: Font?) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:) (iOS 15.0+)
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/multilinetextalignment(_:)
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/linelimit(_:)-513mb
    nonisolated public func lineLimit(_ number: Int?) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/fixedsize(horizontal:vertical:)
    nonisolated public func fixedSize(horizontal: Bool, vertical: Bool) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:)
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> some View
    { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:)
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/background(_:in:fillstyle:) (iOS 15.0+)
    nonisolated public func background<S: ShapeStyle, T: Shape>(
        _ style: S, in shape: T, fillStyle: FillStyle = FillStyle()
    )
        -> some View
    { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/clipshape(_:style:)
    nonisolated public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/tint(_:)-93mfq (iOS 15.0+)
    nonisolated public func tint(_ tint: Color?) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/controlsize(_:)
    nonisolated public func controlSize(_ controlSize: ControlSize) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    nonisolated public func disabled(_ disabled: Bool) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/buttonstyle(_:)-66fbx (`S: PrimitiveButtonStyle`)
    nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-5di1u (`S: StringProtocol`)
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-7vdkx (`Content: ToolbarContent`)
    nonisolated public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> some View
    {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/interactivedismissdisabled(_:) (iOS 15.0+)
    nonisolated public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/refreshable(action:)
    /// `nonisolated func refreshable(action: @escaping @Sendable () async -> Void) -> some View`
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:)
    /// `nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    /// line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void) -> some View`
    nonisolated public func task(
        name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/onsubmit(of:_:) (iOS 15.0+)
    nonisolated public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/autocorrectiondisabled(_:)
    nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityelement(children:)
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:)-1d7jv (`Text`)
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityhint(_:)-6p5ux (`Text`)
    nonisolated public func accessibilityHint(_ hint: Text) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityvalue(_:)-1ilb0 (`Text`)
    nonisolated public func accessibilityValue(_ valueDescription: Text) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityhidden(_:)
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/privacysensitive(_:) (iOS 15.0+)
    nonisolated public func privacySensitive(_ sensitive: Bool = true) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityaddtraits(_:)
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
}

#if canImport(UIKit)
    extension View {
        /// https://developer.apple.com/documentation/swiftui/view/textcontenttype(_:)-ufdv (iOS 10.0+, `UITextContentType?`)
        nonisolated public func textContentType(_ textContentType: UITextContentType?) -> some View {
            _shimUnavailable(_ModifiedView.self)
        }
        /// https://developer.apple.com/documentation/swiftui/view/keyboardtype(_:) (iOS 13.0+)
        nonisolated public func keyboardType(_ type: UIKeyboardType) -> some View {
            _shimUnavailable(_ModifiedView.self)
        }
        /// https://developer.apple.com/documentation/swiftui/view/textinputautocapitalization(_:) (iOS 15.0+)
        nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?)
            -> some View
        {
            _shimUnavailable(_ModifiedView.self)
        }
    }
#endif

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/tabitem(_:)
    nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
    /// https://developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:) ("If item changes, the
    /// system dismisses the sheet and replaces it with a new one")
    nonisolated public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { _shimUnavailable(_ModifiedView.self) }
    /// https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { _shimUnavailable(_ModifiedView.self) }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
}
