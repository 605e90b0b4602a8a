// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shapes and shape styles.

/// https://developer.apple.com/documentation/swiftui/shape
public protocol Shape: Sendable, View {}

/// https://developer.apple.com/documentation/swiftui/circle
public struct Circle: Shape, _PrimitiveView {
    public init() { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/roundedcornerstyle
public enum RoundedCornerStyle: Sendable {
    case circular
    case continuous
}

/// https://developer.apple.com/documentation/swiftui/roundedrectangle
public struct RoundedRectangle: Shape, _PrimitiveView {
    /// https://developer.apple.com/documentation/swiftui/roundedrectangle/init(cornerradius:style:)
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/fillstyle
public struct FillStyle: Equatable, Sendable {
    public init(eoFill: Bool = false, antialiased: Bool = true) { _shimUnavailable() }
}

extension Shape {
    /// https://developer.apple.com/documentation/swiftui/shape/fill(_:style:)
    nonisolated public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> some View {
        _shimUnavailable(_ModifiedView.self)
    }
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

/// https://developer.apple.com/documentation/swiftui/color (a `ShapeStyle`; adapts to light and dark appearance)
public struct Color: ShapeStyle, Hashable {
    /// https://developer.apple.com/documentation/swiftui/color/secondary
    public static var secondary: Color { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/color/green
    public static var green: Color { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/color/accentcolor
    public static var accentColor: Color { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/color/orange
    public static var orange: Color { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/color/red
    public static var red: Color { _shimUnavailable() }
}

/// Color is also a view (in an extension, so its other members are not main-actor isolated).
extension Color: View {
    public typealias Body = Never
    public var body: Never { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle
public struct HierarchicalShapeStyle: ShapeStyle {}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/secondary
    public static var secondary: HierarchicalShapeStyle { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/material (iOS 15.0+)
public struct Material: ShapeStyle {}

extension ShapeStyle where Self == Material {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/regularmaterial
    public static var regularMaterial: Material { _shimUnavailable() }
}
