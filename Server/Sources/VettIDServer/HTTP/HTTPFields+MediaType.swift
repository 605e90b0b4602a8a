import Foundation
import HTTPTypes

extension HTTPFields {
    /// The `Content-Type`'s media type without parameters, lower-cased (`application/json`), or `nil` without one.
    var mediaType: String? {
        self[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
