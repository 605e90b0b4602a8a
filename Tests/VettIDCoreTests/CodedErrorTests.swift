// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

/// Two error types of the shape every SDK and server error has, declared with nothing but storage and constants.
struct SampleError: CodedError, Hashable {
    struct Code: ErrorCode {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
        static let timeout = Code(rawValue: "timeout")
        static let closed = Code(rawValue: "closed")
    }
    let code: Code
    let message: String
}

struct OtherError: CodedError {
    struct Code: ErrorCode {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
        static let timeout = Code(rawValue: "timeout")
    }
    let code: Code
    let message: String
}

@Suite("Coded errors")
struct CodedErrorTests {
    @Test("the description is the type, the code and the message; a code describes itself by its raw value")
    func description() {
        #expect(
            SampleError(code: .timeout, message: "no answer in 2 s").description
                == "SampleError(timeout): no answer in 2 s")
        #expect(SampleError.Code.closed.description == "closed")
        #expect("\(OtherError(code: .timeout, message: "late"))" == "OtherError(timeout): late")
    }

    @Test("catch matches the error's code, not another code, not another type's code of the same name")
    func matching() {
        func classify(_ error: any Error) -> String {
            do { throw error } catch SampleError.Code.timeout { return "sample timeout" } catch SampleError.Code.closed
            {
                return "sample closed"
            } catch OtherError.Code.timeout { return "other timeout" } catch { return "unmatched" }
        }
        #expect(classify(SampleError(code: .timeout, message: "")) == "sample timeout")
        #expect(classify(SampleError(code: .closed, message: "")) == "sample closed")
        #expect(classify(OtherError(code: .timeout, message: "")) == "other timeout")
        #expect(classify(SampleError(code: .init(rawValue: "new_in_v2"), message: "")) == "unmatched")
        #expect(classify(CancellationError()) == "unmatched")
    }

    @Test("an unknown code round-trips through its raw value")
    func openSet() {
        let code = SampleError.Code(rawValue: "from_a_newer_server")
        #expect(code.rawValue == "from_a_newer_server")
        #expect(code != .timeout)
        #expect(SampleError(code: code, message: "x") != SampleError(code: .timeout, message: "x"))
    }
}
