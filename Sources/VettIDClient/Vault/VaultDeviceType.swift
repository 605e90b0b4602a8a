// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The kind of device that enrolls, as the server records it (`ios`, `macos`, `linux`, `android`, `cli`).
public struct VaultDeviceType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// Creates a device type from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// An iPhone or iPad.
    public static let ios = VaultDeviceType(rawValue: "ios")
    /// A Mac.
    public static let macos = VaultDeviceType(rawValue: "macos")
    /// A Linux machine.
    public static let linux = VaultDeviceType(rawValue: "linux")
    /// An Android device.
    public static let android = VaultDeviceType(rawValue: "android")
    /// The command-line tool.
    public static let cli = VaultDeviceType(rawValue: "cli")

    /// The platform this code runs on.
    public static var current: VaultDeviceType {
        #if os(iOS)
            return .ios
        #elseif os(macOS)
            return .macos
        #elseif os(Linux)
            return .linux
        #else
            return .cli
        #endif
    }
}
