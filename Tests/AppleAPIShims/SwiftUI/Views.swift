// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Views and controls.

/// https://developer.apple.com/documentation/swiftui/text
public struct Text: _PrimitiveView, Equatable {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4 (`init<S>(_ content: S) where S: StringProtocol`)
    public init<S: StringProtocol>(_ content: S) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/image
public struct Image: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/image/init(systemname:)
    public init(systemName: String) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/label
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/label/init(title:icon:)
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/buttonrole (iOS 15.0+)
public struct ButtonRole: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/buttonrole/destructive
    public static var destructive: ButtonRole { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/buttonrole/cancel
    public static var cancel: ButtonRole { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        _shimUnavailable()
    }
    /// https://developer.apple.com/documentation/swiftui/button/init(role:action:label:) (iOS 15.0+)
    @preconcurrency nonisolated public init(
        role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label
    ) {
        _shimUnavailable()
    }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7 (`init<S>(_ title: S, action:) where S: StringProtocol`)
    @preconcurrency nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/progressview
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/progressview/init()
    public init() { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/progressview/init(value:total:)
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) { _shimUnavailable() }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/progressview/init(value:total:label:)
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/textfield
public struct TextField<Label: View>: _PrimitiveView {}

extension TextField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-18a4o (`S: StringProtocol`)
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:prompt:)-4h9ln (iOS 15.0+)
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text?) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/securefield
public struct SecureField<Label: View>: _PrimitiveView {}

extension SecureField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/securefield/init(_:text:)-4bi5m (`S: StringProtocol`)
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/spacer
public struct Spacer: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/spacer/init(minlength:)
    public init(minLength: CGFloat? = nil) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/divider
public struct Divider: _PrimitiveView {
    public init() { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/foreach
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content>: _PrimitiveView {}

extension ForEach where Content: View {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)-4x6x2 (`Data.Element: Identifiable`)
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where ID == Data.Element.ID, Data.Element: Identifiable { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        _shimUnavailable()
    }
}

extension Label where Title == Text, Icon == Image {
    /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-7dubq (`S: StringProtocol`)
    public init<S: StringProtocol>(_ title: S, systemImage name: String) { _shimUnavailable() }
}
