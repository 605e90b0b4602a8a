// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of the parts of Apple's Security framework the SDK calls (type-checking only; every body traps).
//
// Core Foundation bridging. On Apple platforms `CFString` and `CFDictionary` are classes (the CFDictionary page
// declares `class CFDictionary`; every CF type is imported so) and `CFTypeRef` is `AnyObject`: nothing converts to them
// implicitly, so a `[String: Any]` query is passed to `SecItemAdd` as `query as CFDictionary`, and a `CFString` key
// goes into a `[String: Any]` as `kSecClass as String`. Swift on Linux has no CF classes, but it bridges `String` ↔
// `NSString` and `[String: Any]` ↔ `NSDictionary` with `as` exactly so (swift-corelibs-foundation's
// `_ObjectiveCBridgeable` conformances), and these are the Foundation classes the CF types are toll-free bridged to. So
// here the CF types are aliases of those classes: dropping an `as CFDictionary` or an `as String` fails as it does on a
// Mac. Not modelled: on Apple platforms `CFString` and `NSString` are two types (converting one to the other also takes
// an `as`); here they are one. See ../README.md.

public import Foundation

public typealias OSStatus = Int32
/// https://developer.apple.com/documentation/corefoundation/cfstring (toll-free bridged with `NSString`)
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary (toll-free bridged with `NSDictionary`)
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cftyperef (`typealias CFTypeRef = AnyObject`, as here)
public typealias CFTypeRef = AnyObject

/// https://developer.apple.com/documentation/corefoundation/cferror
public final class CFError: Error, @unchecked Sendable {}
/// https://developer.apple.com/documentation/corefoundation/cfallocator
public final class CFAllocator {}
/// https://developer.apple.com/documentation/security/secaccesscontrol
public final class SecAccessControl {}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/privatekeyusage
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}

// The `kSec…` constants are C globals (`extern const CFStringRef kSecClass;`), read by Swift code from any
// isolation (`KeychainSecureStore` is an actor). NSString is not `Sendable` on Linux, so here they are
// `nonisolated(unsafe)` to be read the same way; whether Apple's SDK marks `CFString` `Sendable` is not modelled.

// https://developer.apple.com/documentation/security/item-class-keys-and-values
nonisolated(unsafe) public let kSecClass: CFString = "class"
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
// https://developer.apple.com/documentation/security/item-attribute-keys-and-values
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
// https://developer.apple.com/documentation/security/item-return-result-keys
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
// https://developer.apple.com/documentation/security/search-attribute-keys-and-values
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"

// https://developer.apple.com/documentation/security/security-framework-result-codes
public let errSecSuccess: OSStatus = 0
public let errSecItemNotFound: OSStatus = -25300
public let errSecDuplicateItem: OSStatus = -25299
public let errSecMissingEntitlement: OSStatus = -34018

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("shim")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { fatalError("shim") }

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("shim")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError("shim") }

/// https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    fatalError("shim")
}
