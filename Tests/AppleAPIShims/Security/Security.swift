// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of the parts of Apple's Security framework the SDK calls (type-checking only; every body traps).
// Core Foundation types are modelled as Swift types: see ../README.md.

public typealias OSStatus = Int32
public typealias CFString = String
public typealias CFTypeRef = Any
public typealias CFDictionary = [String: Any]

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

// https://developer.apple.com/documentation/security/item-class-keys-and-values
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
// https://developer.apple.com/documentation/security/item-attribute-keys-and-values
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecAttrAccessGroup: CFString = "agrp"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecUseDataProtectionKeychain: CFString = "nleg"
// https://developer.apple.com/documentation/security/item-return-result-keys
public let kSecReturnData: CFString = "r_Data"
public let kSecValueData: CFString = "v_Data"
// https://developer.apple.com/documentation/security/search-attribute-keys-and-values
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"

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
