// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

@testable import VettIDClient

/// The wire's error codes have one definition, the error table of `openapi.yaml`, generated into `APIErrorCode`
/// (the server's `APIFailure.Code` and the SDK's `APIError.Code` are that type). The SDK adds client-side codes;
/// they must never collide with a code the server sends.
@Suite("Error codes: one table for the wire")
struct ErrorCodeAgreementTests {
    @Test("the SDK's own codes are not in the wire table, and are unique")
    func clientSideCodesStayOffTheWire() {
        let wire = Set(APIErrorCode.documented.map(\.key))
        let client = APIErrorCode.clientSide
        #expect(client.count == Set(client).count, "a client-side code is listed twice")
        #expect(Set(client).intersection(wire).map(\.rawValue).sorted() == [], "a client-side code is on the wire")
        for code in client { #expect(code.documentedStatuses == [], "\(code)") }
    }

    @Test("catch APIError.<code> matches wire and client codes by value, and nothing else")
    func catchPatterns() {
        func caught(_ error: APIError) -> String {
            do { throw error } catch APIError.invalidToken { return "invalid_token" } catch APIError.networkError {
                return "network_error"
            } catch { return "other" }
        }
        #expect(caught(APIError(code: .invalidToken, status: 401, description: "expired")) == "invalid_token")
        #expect(caught(APIError(code: "invalid_token", status: 401, description: "from the wire")) == "invalid_token")
        #expect(caught(APIError(code: .networkError, description: "offline")) == "network_error")
        #expect(caught(APIError(code: "sent_by_a_newer_server", status: 400, description: "")) == "other")
    }
}
