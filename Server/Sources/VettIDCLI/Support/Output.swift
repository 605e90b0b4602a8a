// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Prints command results as human text or as one JSON object per command. Every result is flushed as it is
/// printed, so a pipe (`vettid nats listen | jq`) sees each line when it happens, not when a buffer fills.
struct Output {
    let format: OutputFormat

    /// Prints `human` in human mode, or `json` as a JSON object in JSON mode.
    func emit(_ human: @autoclosure () -> String, json: [String: Any]) {
        switch format {
        case .human:
            print(human())
        case .json:
            let data =
                (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            print(String(decoding: data, as: UTF8.self))
        }
        fflush(nil)  // every output stream; `stdout` itself is a C global Swift 6 will not touch
    }
}
