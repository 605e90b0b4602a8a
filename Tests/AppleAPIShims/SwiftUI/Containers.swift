// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Stacks, lists, forms and navigation.

/// https://developer.apple.com/documentation/swiftui/vstack
public struct VStack<Content: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)
    {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/hstack
public struct HStack<Content: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/hstack/init(alignment:spacing:content:)
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/scrollview
public struct ScrollView<Content: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/scrollview/init(_:showsindicators:content:)
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/form
public struct Form<Content: View>: _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/form/init(content:)
    public init(@ViewBuilder content: () -> Content) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/list
public struct List<SelectionValue: Hashable, Content: View>: _PrimitiveView {}

extension List where SelectionValue == Never {
    /// https://developer.apple.com/documentation/swiftui/list/init(content:)
    public init(@ViewBuilder content: () -> Content) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/section
public struct Section<Parent, Content, Footer>: _PrimitiveView {}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(content:)
    public init(@ViewBuilder content: () -> Content) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/navigationpath
public struct NavigationPath {}

/// https://developer.apple.com/documentation/swiftui/navigationstack (iOS 16.0+)
public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

extension NavigationStack where Data == NavigationPath {
    /// https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    public init(@ViewBuilder root: () -> Root) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/toolbarcontent
@MainActor @preconcurrency
public protocol ToolbarContent {}

/// https://developer.apple.com/documentation/swiftui/toolbarcontentbuilder
@resultBuilder
public struct ToolbarContentBuilder {
    /// https://developer.apple.com/documentation/swiftui/toolbarcontentbuilder/buildblock(_:)-2u8ws
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/toolbaritemplacement
public struct ToolbarItemPlacement {
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/cancellationaction
    public static var cancellationAction: ToolbarItemPlacement { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/primaryaction
    public static var primaryAction: ToolbarItemPlacement { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/toolbaritem
public struct ToolbarItem<ID, Content: View>: ToolbarContent {}

extension ToolbarItem where ID == () {
    /// https://developer.apple.com/documentation/swiftui/toolbaritem/init(placement:content:)
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        _shimUnavailable()
    }
}

extension ToolbarItemPlacement {
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/automatic
    public static var automatic: ToolbarItemPlacement { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/tabview
public struct TabView<SelectionValue: Hashable, Content: View>: _PrimitiveView {}

extension TabView where SelectionValue == Int {
    /// https://developer.apple.com/documentation/swiftui/tabview/init(content:)
    public init(@ViewBuilder content: () -> Content) { _shimUnavailable() }
}
