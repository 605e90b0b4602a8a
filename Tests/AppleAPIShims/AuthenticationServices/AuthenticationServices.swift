// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of AuthenticationServices (type-checking only; every body traps). Only what VettIDClient's
// PlatformPasskeyAuthenticator and the example app call: the platform (iCloud Keychain) passkey provider, its
// requests and credentials, ASAuthorizationController with its delegate and presentation protocols, and
// ASAuthorizationError. Only iOS is modelled: there `ASPresentationAnchor` is `UIWindow` (on macOS `NSWindow`).
// None of the classes is declared `Sendable` or main-actor isolated unless its page says so: the delegate and
// presentation-context protocols are `@MainActor`, ASAuthorizationController is not; the credential descriptor lists
// `Sendable`. Objective-C `optional` delegate methods are plain requirements (Linux has no `optional`), only those
// the SDK implements, so a misspelled one fails the conformance (as UIKit's UIApplicationDelegate here).

public import Foundation
public import UIKit

/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor (iOS 12.0+;
/// `typealias ASPresentationAnchor = UIWindow` on iOS, `NSWindow` on macOS)
public typealias ASPresentationAnchor = UIWindow

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct (iOS 13.0+;
/// `struct ASAuthorizationError`, an `NS_ERROR_ENUM` of `ASAuthorizationErrorDomain`: Swift casts an `Error` from
/// the controller's delegate to it with `as?`)
public struct ASAuthorizationError: Error {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct/code
    /// (`enum Code`, `init?(rawValue: Int)`; the raw values are the `NSInteger`s of the header's
    /// `ASAuthorizationErrorUnknown` = 1000 … `ASAuthorizationErrorDeviceNotConfiguredForPasskeyCreation` = 1010).
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
        case credentialImport = 1007
        case credentialExport = 1008
        case preferSignInWithApple = 1009
        case deviceNotConfiguredForPasskeyCreation = 1010
    }
    /// The error's code (`_BridgedStoredNSError.code`).
    public var code: Code { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationrequest (iOS 13.0+)
open class ASAuthorizationRequest: NSObject {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcredential (iOS 13.0+;
/// `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol`: only `NSObjectProtocol` here)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// https://developer.apple.com/documentation/authenticationservices/aspublickeycredential (iOS 15.0+)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    /// https://developer.apple.com/documentation/authenticationservices/aspublickeycredential/credentialid
    var credentialID: Data { get }
    /// https://developer.apple.com/documentation/authenticationservices/aspublickeycredential/rawclientdatajson
    var rawClientDataJSON: Data { get }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistration
/// (iOS 15.0+)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistration/rawattestationobject
    var rawAttestationObject: Data? { get }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion
/// (iOS 15.0+; the three properties are implicitly unwrapped on the page)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/rawauthenticatordata
    var rawAuthenticatorData: Data! { get }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/userid
    var userID: Data! { get }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertion/signature
    var signature: Data! { get }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistration
/// (iOS 15.0+)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var credentialID: Data { fatalError("shim") }
    open var rawClientDataJSON: Data { fatalError("shim") }
    open var rawAttestationObject: Data? { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertion
/// (iOS 15.0+)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var credentialID: Data { fatalError("shim") }
    open var rawClientDataJSON: Data { fatalError("shim") }
    open var rawAuthenticatorData: Data! { fatalError("shim") }
    open var userID: Data! { fatalError("shim") }
    open var signature: Data! { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference
/// (iOS 15.0+; a string-backed struct; the page's constants are `static let`, get-only `static var`s here)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference/init(rawvalue:)
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference/required
    public static var required: ASAuthorizationPublicKeyCredentialUserVerificationPreference { fatalError("shim") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference/preferred
    public static var preferred: ASAuthorizationPublicKeyCredentialUserVerificationPreference { fatalError("shim") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference/discouraged
    public static var discouraged: ASAuthorizationPublicKeyCredentialUserVerificationPreference { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialdescriptor
/// (iOS 15.0+; the page lists `Sendable`)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialdescriptor/init(credentialid:)
    public init(credentialID: Data) { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistrationrequest
/// (iOS 15.0+)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialregistrationrequest/userverificationpreference
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertionrequest
/// (iOS 15.0+)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertionrequest/allowedcredentials
    /// (the class's own, typed `[ASAuthorizationPlatformPublicKeyCredentialDescriptor]`)
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialassertionrequest/userverificationpreference
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider
/// (iOS 15.0+)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/init(relyingpartyidentifier:)
    public init(relyingPartyIdentifier: String) { fatalError("shim") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/createcredentialregistrationrequest(challenge:name:userid:)
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { fatalError("shim") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider/createcredentialassertionrequest(challenge:)
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorization (iOS 13.0+)
open class ASAuthorization: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/credential
    open var credential: any ASAuthorizationCredential { fatalError("shim") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate (iOS 13.0+;
/// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol`; both methods `optional` on the page)
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewithauthorization:)
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewitherror:)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
/// (iOS 13.0+; `@MainActor protocol … : NSObjectProtocol`)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller (iOS 13.0+;
/// `class ASAuthorizationController`: not main-actor isolated on the page, not `Sendable`)
open class ASAuthorizationController: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/init(authorizationrequests:)
    public init(authorizationRequests: [ASAuthorizationRequest]) { fatalError("shim") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/delegate
    /// (`weak var`: the controller does not keep its delegate alive)
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/presentationcontextprovider
    /// (`weak var`)
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performrequests()
    open func performRequests() { fatalError("shim") }
}
