// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of QuartzCore (type-checking only; every body traps). Only the layer class AVFoundation's preview layer
// and UIKit's views build on.

public import Foundation

/// https://developer.apple.com/documentation/quartzcore/calayer
open class CALayer: NSObject {}
