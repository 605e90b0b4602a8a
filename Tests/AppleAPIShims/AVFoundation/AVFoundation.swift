// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of AVFoundation's capture API (type-checking only; every body traps). Only what VettIDUI's QR scanner calls.
// None of these classes is declared Sendable: the pages list no such conformance.

@_exported public import CAVFoundation
public import Dispatch
public import Foundation
@_exported public import QuartzCore

/// https://developer.apple.com/documentation/avfoundation/avmediatype
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/avfoundation/avmediatype/video
    public static var video: AVMediaType { fatalError("shim") }
}

// https://developer.apple.com/documentation/avfoundation/avauthorizationstatus: `AVAuthorizationStatus` is declared
// in C (include/AVAuthorizationStatus.h, re-exported above), as Apple's NS_ENUM is, so that Swift imports it as a
// non-frozen enum and a `switch` over it without `@unknown default` fails the check.

/// https://developer.apple.com/documentation/avfoundation/avcapturedevice
open class AVCaptureDevice: NSObject {
    /// https://developer.apple.com/documentation/avfoundation/avcapturedevice/authorizationstatus(for:)
    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturedevice/requestaccess(for:completionhandler:)
    /// (the async form Swift imports from the completion handler)
    open class func requestAccess(for mediaType: AVMediaType) async -> Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturedevice/default(for:)
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { fatalError("shim") }
}

/// https://developer.apple.com/documentation/avfoundation/avcaptureinput
open class AVCaptureInput: NSObject {}

/// https://developer.apple.com/documentation/avfoundation/avcapturedeviceinput
open class AVCaptureDeviceInput: AVCaptureInput {
    /// https://developer.apple.com/documentation/avfoundation/avcapturedeviceinput/init(device:)
    public init(device: AVCaptureDevice) throws { fatalError("shim") }
}

/// https://developer.apple.com/documentation/avfoundation/avcaptureoutput
open class AVCaptureOutput: NSObject {}

/// https://developer.apple.com/documentation/avfoundation/avcaptureconnection
open class AVCaptureConnection: NSObject {}

/// https://developer.apple.com/documentation/avfoundation/avmetadataobject
open class AVMetadataObject: NSObject {
    /// https://developer.apple.com/documentation/avfoundation/avmetadataobject/objecttype
    public struct ObjectType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/avfoundation/avmetadataobject/objecttype/qr
        public static var qr: ObjectType { fatalError("shim") }
    }
}

/// https://developer.apple.com/documentation/avfoundation/avmetadatamachinereadablecodeobject
open class AVMetadataMachineReadableCodeObject: AVMetadataObject {
    /// https://developer.apple.com/documentation/avfoundation/avmetadatamachinereadablecodeobject/stringvalue
    open var stringValue: String? { fatalError("shim") }
}

/// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutputobjectsdelegate
/// (the method is optional in Objective-C; required here, where it is implemented)
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutputobjectsdelegate/metadataoutput(_:didoutput:from:)
    func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
        from connection: AVCaptureConnection)
}

/// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutput
open class AVCaptureMetadataOutput: AVCaptureOutput {
    public override init() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutput/setmetadataobjectsdelegate(_:queue:)
    open func setMetadataObjectsDelegate(
        _ objectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)?, queue objectsCallbackQueue: DispatchQueue?
    ) { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutput/availablemetadataobjecttypes
    open var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturemetadataoutput/metadataobjecttypes
    open var metadataObjectTypes: [AVMetadataObject.ObjectType]! {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
}

/// https://developer.apple.com/documentation/avfoundation/avcapturesession
/// ("startRunning() … is a blocking call … call it on a background serial queue")
open class AVCaptureSession: NSObject {
    public override init() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/beginconfiguration()
    open func beginConfiguration() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/commitconfiguration()
    open func commitConfiguration() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/canaddinput(_:)
    open func canAddInput(_ input: AVCaptureInput) -> Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/addinput(_:)
    open func addInput(_ input: AVCaptureInput) { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/canaddoutput(_:)
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/addoutput(_:)
    open func addOutput(_ output: AVCaptureOutput) { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/removeinput(_:)
    open func removeInput(_ input: AVCaptureInput) { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/removeoutput(_:)
    open func removeOutput(_ output: AVCaptureOutput) { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/startrunning()
    open func startRunning() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/stoprunning()
    open func stopRunning() { fatalError("shim") }
    /// https://developer.apple.com/documentation/avfoundation/avcapturesession/isrunning
    open var isRunning: Bool { fatalError("shim") }
}

/// https://developer.apple.com/documentation/avfoundation/avlayervideogravity
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/avfoundation/avlayervideogravity/resizeaspectfill
    public static var resizeAspectFill: AVLayerVideoGravity { fatalError("shim") }
}

/// https://developer.apple.com/documentation/avfoundation/avcapturevideopreviewlayer
open class AVCaptureVideoPreviewLayer: CALayer {
    /// https://developer.apple.com/documentation/avfoundation/avcapturevideopreviewlayer/session
    open var session: AVCaptureSession? {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
    /// https://developer.apple.com/documentation/avfoundation/avcapturevideopreviewlayer/videogravity
    open var videoGravity: AVLayerVideoGravity {
        get { fatalError("shim") }
        set { fatalError("shim") }
    }
}
