// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes
import NIOConcurrencyHelpers

/// Header fields a handler adds to its response verbatim.
///
/// The generated server serialises header values with URI escaping, which would corrupt a `Set-Cookie`
/// value; handlers record such headers here and ``RequestInfoMiddleware`` applies them unchanged.
public final class ResponseHeaders: Sendable {
    private let fields = NIOLockedValueBox(HTTPFields())

    init() {}

    /// Adds a field to the response.
    public func append(_ name: HTTPField.Name, _ value: String) {
        fields.withLockedValue { $0.append(HTTPField(name: name, value: value)) }
    }

    var all: HTTPFields { fields.withLockedValue { $0 } }
}
