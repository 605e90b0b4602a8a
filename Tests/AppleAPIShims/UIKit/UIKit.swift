// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of UIKit (type-checking only; every body traps). Only what VettIDUI's iOS code calls.

public import Foundation
@_exported public import QuartzCore

/// https://developer.apple.com/documentation/uikit/uiview (main-actor isolated, iOS 2.0+)
@MainActor
open class UIView: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiview/layerclass
    open class var layerClass: AnyClass { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uiview/layer
    open var layer: CALayer { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) { fatalError("shim") }
    /// `UIView()`: NSObject's `init()`, which UIView implements as `init(frame: .zero)`.
    public override init() { fatalError("shim") }
}

/// https://developer.apple.com/documentation/uikit/uiwindow (`@MainActor class UIWindow`, a `UIView`): also
/// AuthenticationServices' `ASPresentationAnchor` on iOS.
@MainActor
open class UIWindow: UIView {}

/// https://developer.apple.com/documentation/uikit/uiscene (`@MainActor class UIScene`, iOS 13.0+; its superclass
/// `UIResponder` is not modelled)
@MainActor
open class UIScene: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiwindowscene (iOS 13.0+)
@MainActor
open class UIWindowScene: UIScene {
    /// https://developer.apple.com/documentation/uikit/uiwindowscene/keywindow (iOS 15.0+)
    open var keyWindow: UIWindow? { fatalError("shim") }
}

/// https://developer.apple.com/documentation/uikit/uiapplication (main-actor isolated)
@MainActor
open class UIApplication: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiapplication/shared
    open class var shared: UIApplication { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes (iOS 13.0+)
    open var connectedScenes: Set<UIScene> { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uiapplication/opensettingsurlstring (iOS 8.0+)
    public class var openSettingsURLString: String { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uiapplication/registerforremotenotifications() (iOS 8.0+):
    /// the answer comes to the delegate's `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` or
    /// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    open func registerForRemoteNotifications() { fatalError("shim") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// https://developer.apple.com/documentation/uikit/uiapplicationdelegate (`@MainActor protocol
/// UIApplicationDelegate : NSObjectProtocol`). Its methods are Objective-C `optional` requirements, which Linux
/// cannot declare (no Objective-C runtime). They are plain requirements here, the three the example app implements:
/// a delegate method whose name or types miss Apple's then fails the conformance. (As requirements with default
/// implementations, a misspelled method compiled silently: Swift gave no "nearly matches" warning for it, tried.)
/// Whoever implements another delegate method adds it here from its page.
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:)
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didregisterforremotenotificationswithdevicetoken:)
    /// ("APNs device tokens are of variable length. Do not hard-code their size.")
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfailtoregisterforremotenotificationswitherror:)
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
}

/// https://developer.apple.com/documentation/uikit/uitextcontenttype (iOS 10.0+)
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/emailaddress
    public static var emailAddress: UITextContentType { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/password (iOS 11.0+)
    public static var password: UITextContentType { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/newpassword (iOS 12.0+)
    public static var newPassword: UITextContentType { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/givenname
    public static var givenName: UITextContentType { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/familyname
    public static var familyName: UITextContentType { fatalError("shim") }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/username (iOS 11.0+)
    public static var username: UITextContentType { fatalError("shim") }
}

/// https://developer.apple.com/documentation/uikit/uikeyboardtype
public enum UIKeyboardType: Int, Sendable {
    case `default` = 0
    case emailAddress = 7
}
