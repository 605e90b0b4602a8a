// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Apps, scenes and UIKit views in SwiftUI.

#if canImport(UIKit)
    public import UIKit
#endif

/// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { _shimUnavailable() }
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    public init(@ViewBuilder content: () -> Content) { _shimUnavailable() }
    public var body: Never { _shimUnavailable() }
}

#if canImport(UIKit)
    /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor (iOS 14.0+): SwiftUI makes the
    /// delegate and keeps it for the app's lifetime; declared once, in the `App`.
    @MainActor @preconcurrency @propertyWrapper
    public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate> {
        /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/init(_:)-59sfu
        @MainActor @preconcurrency public init(_ delegateType: DelegateType.Type = DelegateType.self) {
            _shimUnavailable()
        }
        /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/wrappedvalue
        @MainActor @preconcurrency public var wrappedValue: DelegateType { _shimUnavailable() }
    }

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable (iOS 13.0+, main-actor isolated)
    @MainActor @preconcurrency
    public protocol UIViewRepresentable: View where Body == Never {
        associatedtype UIViewType: UIView
        associatedtype Coordinator = Void
        typealias Context = UIViewRepresentableContext<Self>
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
        @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
        @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/dismantleuiview(_:coordinator:)
        @MainActor @preconcurrency static func dismantleUIView(_ uiView: Self.UIViewType, coordinator: Self.Coordinator)
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makecoordinator()
        @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
    }

    extension UIViewRepresentable {
        public static func dismantleUIView(_ uiView: Self.UIViewType, coordinator: Self.Coordinator) {
            _shimUnavailable()
        }
        public var body: Never { _shimUnavailable() }
    }

    extension UIViewRepresentable where Coordinator == Void {
        public func makeCoordinator() -> Void { _shimUnavailable() }
    }

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext
    @MainActor @preconcurrency
    public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext/coordinator
        public let coordinator: Representable.Coordinator
    }
#endif
