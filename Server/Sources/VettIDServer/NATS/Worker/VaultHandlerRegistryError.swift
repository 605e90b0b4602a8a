// Why a handler registry could not be built.

/// Why a ``VaultHandlerRegistry`` refused its handlers.
public struct VaultHandlerRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An open set of error codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Two handlers have the same id.
        public static let duplicateID = Code(rawValue: "duplicate_handler_id")
        /// A handler id is empty or longer than 128 bytes.
        public static let invalidID = Code(rawValue: "invalid_handler_id")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "VaultHandlerRegistryError(\(code)): \(message)" }
}
