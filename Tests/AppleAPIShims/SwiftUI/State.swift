// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Data flow: State, Binding, Bindable, Environment.

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/state
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { _shimUnavailable() }
        nonmutating set { _shimUnavailable() }
    }
    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
    /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value,
    /// set: @escaping @isolated(any) @Sendable (Value) -> Void)`
    @preconcurrency public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { _shimUnavailable() }
        nonmutating set { _shimUnavailable() }
    }
    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        _shimUnavailable()
    }
}

/// https://developer.apple.com/documentation/swiftui/bindable (iOS 17.0+)
@propertyWrapper @dynamicMemberLookup
public struct Bindable<Value> {
    /// A stored property without a default, so the struct has no implicit `init()` besides the ones below.
    private let _storage: Any
    /// https://developer.apple.com/documentation/swiftui/bindable/wrappedvalue
    public var wrappedValue: Value {
        get { _shimUnavailable() }
        set { _shimUnavailable() }
    }
    /// https://developer.apple.com/documentation/swiftui/bindable/projectedvalue
    public var projectedValue: Bindable<Value> { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/bindable/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        _shimUnavailable()
    }
}

extension Bindable where Value: AnyObject, Value: Observable {
    /// https://developer.apple.com/documentation/swiftui/bindable/init(wrappedvalue:)
    public init(wrappedValue: Value) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/bindable/init(_:)-5sh1g
    public init(_ wrappedValue: Value) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/openurl
    public var openURL: OpenURLAction { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/openurlaction
@MainActor @preconcurrency
public struct OpenURLAction {
    /// https://developer.apple.com/documentation/swiftui/openurlaction/callasfunction(_:)
    public func callAsFunction(_ url: URL) { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/environment
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { _shimUnavailable() }
    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { _shimUnavailable() }
}
