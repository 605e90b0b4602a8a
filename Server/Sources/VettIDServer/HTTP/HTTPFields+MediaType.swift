// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

extension HTTPFields {
    /// The `Content-Type`'s media type without parameters, lower-cased (`application/json`), or `nil` without one.
    var mediaType: String? {
        self[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
