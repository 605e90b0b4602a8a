// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of AVFoundation's AVAuthorizationStatus (type-checking only), declared in C as Apple declares it:
// https://developer.apple.com/documentation/avfoundation/avauthorizationstatus (iOS 7.0+, macOS 10.14+; its
// precise identifier is `c:@E@AVAuthorizationStatus`, a C enum from AVCaptureDevice.h:
// `typedef NS_ENUM(NSInteger, AVAuthorizationStatus) { … }`).
//
// NS_ENUM expands to an enum with `enum_extensibility(open)`, which Swift imports as a non-frozen enum: a `switch`
// over it needs `@unknown default`, or Swift 6 warns ("switch covers known cases, but 'AVAuthorizationStatus' may
// have additional unknown values"), an error under -warnings-as-errors. A Swift enum in the shim module would be
// frozen (the shims are not built with library evolution), so the enum is declared here, the same way Apple does.
// NSInteger is `long` on every 64-bit Apple platform; Swift imports the raw value as `Int`.

#ifndef VETTID_SHIM_AVAUTHORIZATIONSTATUS_H
#define VETTID_SHIM_AVAUTHORIZATIONSTATUS_H

typedef enum __attribute__((enum_extensibility(open))) AVAuthorizationStatus : long {
    AVAuthorizationStatusNotDetermined = 0,
    AVAuthorizationStatusRestricted = 1,
    AVAuthorizationStatusDenied = 2,
    AVAuthorizationStatusAuthorized = 3,
} AVAuthorizationStatus;

#endif
