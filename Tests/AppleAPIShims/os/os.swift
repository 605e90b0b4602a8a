// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of the unified logging API of `os` (type-checking only; every body traps).

/// https://developer.apple.com/documentation/os/oslogtype
public struct OSLogType: Equatable, Sendable {
    let raw: UInt8
    public static let debug = OSLogType(raw: 2)
    public static let info = OSLogType(raw: 1)
    public static let `default` = OSLogType(raw: 0)
    public static let error = OSLogType(raw: 16)
    public static let fault = OSLogType(raw: 17)
}

/// https://developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy: Sendable {
    let redacted: Bool
    public static let `public` = OSLogPrivacy(redacted: false)
    public static let `private` = OSLogPrivacy(redacted: true)
}

/// https://developer.apple.com/documentation/os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-1vwwb
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .private
    ) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/logger
public struct Logger: @unchecked Sendable {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) { fatalError("shim") }
}
