// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of SwiftUI (type-checking only; every body traps). Only what VettIDUI, VettIDNatsUI and the example app
// call, with the declarations of Apple's documentation pages (current SDK); `_`-prefixed names are the shim's own
// plumbing (the real types behind `some View` are private to SwiftUI).

@_exported public import Foundation
@_exported public import Observation

/// Traps: nothing in this module can run.
@inline(never)
func _shimUnavailable() -> Never { fatalError("Apple API shim: type-checking only") }

/// Traps, typed as `T` (what an opaque `some View` result needs to name its underlying type).
@inline(never)
func _shimUnavailable<T>(_: T.Type) -> T { fatalError("Apple API shim: type-checking only") }

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency public protocol View { associatedtype Body: View; @ViewBuilder @MainActor var body: Self.Body { get } }`
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// The primitive views of this shim: their `Body` is `Never`, as SwiftUI's own primitives.
public protocol _PrimitiveView: View where Body == Never {}

extension _PrimitiveView {
    public var body: Never { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swift/never (SwiftUI conforms `Never` to `View`)
extension Never: View {
    public typealias Body = Never
    public var body: Never { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2k6ge
    public static func buildBlock<Content: View>(_ content: Content) -> Content { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:) (parameter packs, iOS 17.0+)
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > {
        _shimUnavailable()
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
public struct TupleView<T>: _PrimitiveView {}

/// SwiftUI's `_ConditionalContent` (what `if`/`else` and `switch` in a view builder produce).
public struct _ConditionalContent<TrueContent, FalseContent>: _PrimitiveView {}

/// https://developer.apple.com/documentation/swiftui/emptyview
public struct EmptyView: _PrimitiveView {
    public init() { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/anyview
public struct AnyView: _PrimitiveView {
    public init<V: View>(_ view: V) { _shimUnavailable() }
}

/// `Optional: View where Wrapped: View` (what `if` without `else` produces).
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { _shimUnavailable() }
}

/// What every modifier of this shim returns (SwiftUI's `ModifiedContent` and friends).
public struct _ModifiedView: _PrimitiveView {}
