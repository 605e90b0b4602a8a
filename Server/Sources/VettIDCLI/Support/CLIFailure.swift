// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import VettIDClient
import VettIDCore

/// A failure the CLI reports on standard error, in text or JSON, with a non-zero exit code.
struct CLIFailure: Error, CustomStringConvertible {
    let code: String
    let message: String
    var reasons: [String] = []

    var description: String {
        ([message] + reasons.map { "  - \($0)" }).joined(separator: "\n")
    }

    init(code: String, message: String, reasons: [String] = []) {
        self.code = code
        self.message = message
        self.reasons = reasons
    }

    init(_ error: APIError) {
        self.init(code: error.code.rawValue, message: error.description, reasons: error.reasons)
    }

    /// Prints the failure and exits with status 1.
    func exit(_ format: OutputFormat) -> ExitCode {
        switch format {
        case .human:
            FileHandle.standardError.write(Data("error: \(description)\n".utf8))
        case .json:
            let body = Body(error: code, errorDescription: message, reasons: reasons)
            let data = (try? Output.encoder.encode(body)) ?? Data()
            FileHandle.standardError.write(data + Data("\n".utf8))
        }
        return ExitCode(1)
    }
}

extension CLIFailure {
    /// The failure in `--output json`: the API's `Error` shape.
    struct Body: Encodable {
        let error: String
        let errorDescription: String
        let reasons: [String]
    }
}
