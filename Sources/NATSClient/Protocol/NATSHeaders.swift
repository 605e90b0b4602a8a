// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// NATS message headers (ADR-4): an HTTP-like block `NATS/1.0[ status[ description]]\r\n(Key: Value\r\n)*\r\n`.

/// Message headers: case-preserving names, repeated names allowed, in wire order, plus the optional
/// status line code and description the server uses (for example `503` for no responders).
public struct NATSHeaders: Sendable, Equatable, Sequence {
    /// The status code of the header line (`NATS/1.0 503`), if any.
    public var status: Int?
    /// The description after the status code, if any.
    public var statusDescription: String?
    private var fields: [(name: String, value: String)]

    /// Creates empty headers, or headers with a status.
    public init(status: Int? = nil, statusDescription: String? = nil) {
        self.status = status
        self.statusDescription = statusDescription
        self.fields = []
    }

    /// Creates headers from name/value pairs in order.
    public init(_ pairs: [(String, String)]) {
        self.init()
        for (name, value) in pairs { append(name: name, value: value) }
    }

    /// Appends a field. Names keep their case.
    public mutating func append(name: String, value: String) {
        fields.append((name, value))
    }

    /// The first value for `name`, compared case-sensitively as ADR-4 asks.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields and no status.
    public var isEmpty: Bool { fields.isEmpty && status == nil }

    /// Iterates the fields in wire order.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    /// Field-by-field equality, order-sensitive.
    public static func == (lhs: NATSHeaders, rhs: NATSHeaders) -> Bool {
        lhs.status == rhs.status && lhs.statusDescription == rhs.statusDescription
            && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
