// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Layout, fonts and the small value types modifiers take.

/// https://developer.apple.com/documentation/swiftui/horizontalalignment
public struct HorizontalAlignment: Equatable, Sendable {
    public static var leading: HorizontalAlignment { _shimUnavailable() }
    public static var center: HorizontalAlignment { _shimUnavailable() }
    public static var trailing: HorizontalAlignment { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/verticalalignment
public struct VerticalAlignment: Equatable, Sendable {
    public static var center: VerticalAlignment { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/firsttextbaseline
    public static var firstTextBaseline: VerticalAlignment { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/alignment
public struct Alignment: Equatable, Sendable {
    public static var center: Alignment { _shimUnavailable() }
    public static var leading: Alignment { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/axis
public enum Axis: Sendable {
    case horizontal
    case vertical

    /// https://developer.apple.com/documentation/swiftui/axis/set
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static var horizontal: Set { _shimUnavailable() }
        public static var vertical: Set { _shimUnavailable() }
    }
}

/// https://developer.apple.com/documentation/swiftui/edge
public enum Edge: Int8, Sendable {
    case top, leading, bottom, trailing

    /// https://developer.apple.com/documentation/swiftui/edge/set
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static var all: Set { _shimUnavailable() }
        public static var horizontal: Set { _shimUnavailable() }
        public static var vertical: Set { _shimUnavailable() }
    }
}

/// https://developer.apple.com/documentation/swiftui/textalignment
public enum TextAlignment: Sendable {
    case leading, center, trailing
}

/// https://developer.apple.com/documentation/swiftui/font (text styles scale with Dynamic Type)
public struct Font: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/font/title
    public static var title: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/title2
    public static var title2: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/title3
    public static var title3: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/body
    public static var body: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/headline
    public static var headline: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/caption
    public static var caption: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/footnote
    public static var footnote: Font { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/font/monospaced() (iOS 15.0+)
    public func monospaced() -> Font { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/controlsize
public enum ControlSize: Sendable {
    case mini, small, regular, large
}

/// https://developer.apple.com/documentation/swiftui/submittriggers
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static var text: SubmitTriggers { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior
public struct AccessibilityChildBehavior: Hashable, Sendable {
    public static var ignore: AccessibilityChildBehavior { _shimUnavailable() }
    public static var contain: AccessibilityChildBehavior { _shimUnavailable() }
    public static var combine: AccessibilityChildBehavior { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/accessibilitytraits
public struct AccessibilityTraits: SetAlgebra, Sendable {
    public init() { _shimUnavailable() }
    public static var isButton: AccessibilityTraits { _shimUnavailable() }
    public static var isHeader: AccessibilityTraits { _shimUnavailable() }
    // SetAlgebra's requirements (the shim never runs them).
    public func contains(_ member: AccessibilityTraits) -> Bool { _shimUnavailable() }
    public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { _shimUnavailable() }
    public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { _shimUnavailable() }
    public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { _shimUnavailable() }
    public mutating func insert(_ newMember: AccessibilityTraits) -> (
        inserted: Bool, memberAfterInsert: AccessibilityTraits
    ) {
        _shimUnavailable()
    }
    public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { _shimUnavailable() }
    public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { _shimUnavailable() }
    public mutating func formUnion(_ other: AccessibilityTraits) { _shimUnavailable() }
    public mutating func formIntersection(_ other: AccessibilityTraits) { _shimUnavailable() }
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) { _shimUnavailable() }
    public static func == (lhs: AccessibilityTraits, rhs: AccessibilityTraits) -> Bool { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle
public protocol PrimitiveButtonStyle {}

/// https://developer.apple.com/documentation/swiftui/borderedprominentbuttonstyle (iOS 15.0+)
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {}
/// https://developer.apple.com/documentation/swiftui/borderedbuttonstyle (iOS 15.0+)
public struct BorderedButtonStyle: PrimitiveButtonStyle {}
/// https://developer.apple.com/documentation/swiftui/plainbuttonstyle
public struct PlainButtonStyle: PrimitiveButtonStyle {}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    /// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/borderedprominent
    public static var borderedProminent: BorderedProminentButtonStyle { _shimUnavailable() }
}

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    /// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/bordered
    public static var bordered: BorderedButtonStyle { _shimUnavailable() }
}

extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    /// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/plain
    public static var plain: PlainButtonStyle { _shimUnavailable() }
}

#if canImport(UIKit)
    /// https://developer.apple.com/documentation/swiftui/textinputautocapitalization (iOS 15.0+, not macOS)
    public struct TextInputAutocapitalization: Sendable {
        public static var never: TextInputAutocapitalization { _shimUnavailable() }
        public static var words: TextInputAutocapitalization { _shimUnavailable() }
        public static var sentences: TextInputAutocapitalization { _shimUnavailable() }
        public static var characters: TextInputAutocapitalization { _shimUnavailable() }
    }
#endif
