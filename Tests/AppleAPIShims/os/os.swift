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
    enum Kind { case auto, `public`, `private` }
    let kind: Kind
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto (the default of every interpolation: the
    /// system decides, and redacts dynamic strings)
    public static let auto = OSLogPrivacy(kind: .auto)
    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    public static let `public` = OSLogPrivacy(kind: .public)
    /// https://developer.apple.com/documentation/os/oslogprivacy/private
    public static let `private` = OSLogPrivacy(kind: .private)
}

/// https://developer.apple.com/documentation/os/oslogstringalignment
public struct OSLogStringAlignment: Sendable {
    /// https://developer.apple.com/documentation/os/oslogstringalignment/none
    public static var none: OSLogStringAlignment { fatalError("shim") }
}

/// https://developer.apple.com/documentation/os/osloginterpolation (`@frozen struct OSLogInterpolation`)
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-6tazr
    /// (`privacy: OSLogPrivacy = .auto`)
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/logger (`struct Logger`). Not `Sendable` here: the page lists no
/// such conformance, so the SDK must not rely on one (`OSLogHandler` keeps no `Logger`, it makes one per entry).
public struct Logger {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) { fatalError("shim") }
}
