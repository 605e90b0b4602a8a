// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of UserNotifications (type-checking only; every body traps). Only what the example app's Notification
// Service Extension calls. None of these classes is declared `Sendable` or main-actor isolated: their pages list
// neither (the service extension's methods are called off the main thread, `serviceExtensionTimeWillExpire()` "on a
// separate thread").

public import Foundation

/// https://developer.apple.com/documentation/usernotifications/unnotificationcontent (iOS 10.0+; `NSCopying`,
/// `NSMutableCopying`, `NSSecureCoding`; no `Sendable` on the page)
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying {
    /// https://developer.apple.com/documentation/usernotifications/unnotificationcontent/title
    open var title: String { fatalError("shim") }
    /// https://developer.apple.com/documentation/usernotifications/unnotificationcontent/body
    open var body: String { fatalError("shim") }
    /// `NSCopying`; Swift code calls NSObject's `copy()`.
    open func copy(with zone: NSZone? = nil) -> Any { fatalError("shim") }
    /// `NSMutableCopying`: the mutable copy is a ``UNMutableNotificationContent``; Swift code calls NSObject's
    /// `mutableCopy()`, which returns `Any` (https://developer.apple.com/documentation/objectivec/nsobject-swift.class/mutablecopy()).
    open func mutableCopy(with zone: NSZone? = nil) -> Any { fatalError("shim") }
}

/// https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent (iOS 10.0+)
open class UNMutableNotificationContent: UNNotificationContent {
    /// https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent/title
    open override var title: String {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
    /// https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent/body
    open override var body: String {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
}

/// https://developer.apple.com/documentation/usernotifications/unnotificationrequest (iOS 10.0+)
open class UNNotificationRequest: NSObject {
    /// https://developer.apple.com/documentation/usernotifications/unnotificationrequest/content
    /// (`@NSCopying var content: UNNotificationContent { get }`)
    open var content: UNNotificationContent { fatalError("shim") }
    /// https://developer.apple.com/documentation/usernotifications/unnotificationrequest/identifier
    open var identifier: String { fatalError("shim") }
}

/// https://developer.apple.com/documentation/usernotifications/unnotificationserviceextension (iOS 10.0+;
/// `class UNNotificationServiceExtension`, not main-actor isolated)
open class UNNotificationServiceExtension: NSObject {
    public override init() { fatalError("shim") }
    /// https://developer.apple.com/documentation/usernotifications/unnotificationserviceextension/didreceive(_:withcontenthandler:)
    /// (the page's handler is `@escaping (UNNotificationContent) -> Void`, not `@Sendable`).
    open func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) { fatalError("shim") }
    /// https://developer.apple.com/documentation/usernotifications/unnotificationserviceextension/serviceextensiontimewillexpire()
    open func serviceExtensionTimeWillExpire() { fatalError("shim") }
}
