// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// Prints command results as human text or as one JSON object per result. Every result is flushed as it is
/// printed, so a pipe (`vettid nats listen | jq`) sees each line when it happens, not when a buffer fills.
///
/// JSON results are `Encodable` values, each command's own result type: keys in snake_case (`userID` is
/// `user_id`), dates in ISO 8601, `nil` optionals left out, keys sorted.
struct Output {
    let format: OutputFormat

    /// Prints `human` in human mode, or `json` as a JSON object in JSON mode.
    func emit<Result: Encodable>(_ human: @autoclosure () -> String, json: @autoclosure () -> Result) {
        switch format {
        case .human:
            print(human())
        case .json:
            let data = (try? Self.encoder.encode(json())) ?? Data("{}".utf8)
            print(String(decoding: data, as: UTF8.self))
        }
        fflush(nil)  // every output stream; `stdout` itself is a C global Swift 6 will not touch
    }

    /// Prints `human` in human mode, or `jsonText`, JSON that is already encoded (a message of the vault
    /// protocol, in its own encoding), in JSON mode.
    func emit(_ human: @autoclosure () -> String, jsonText: @autoclosure () -> [UInt8]) {
        switch format {
        case .human: print(human())
        case .json: print(String(decoding: jsonText(), as: UTF8.self))
        }
        fflush(nil)
    }

    /// The encoder of every JSON result (and of failures on standard error).
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
