// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

@Suite("API error codes (generated from openapi.yaml)")
struct APIErrorCodeTests {
    @Test("every documented code is unique, snake_case and answered with error statuses only")
    func table() {
        let codes = APIErrorCode.documented.map(\.key)
        #expect(codes.count >= 50)
        #expect(Set(codes).count == codes.count, "a code is listed twice")
        for (code, statuses) in APIErrorCode.documented {
            #expect(code.rawValue.allSatisfy { $0 == "_" || ($0.isLetter && $0.isLowercase) }, "\(code)")
            #expect(!statuses.isEmpty && statuses.allSatisfy { (400..<600).contains($0) }, "\(code): \(statuses)")
            #expect(code.documentedStatuses == statuses)
        }
    }

    @Test("constants carry their wire values and statuses; an unknown code has none")
    func constants() {
        #expect(APIErrorCode.invalidDPoPProof.rawValue == "invalid_dpop_proof")
        #expect(APIErrorCode.invalidDPoPProof.documentedStatuses == [400, 401])
        #expect(APIErrorCode.attestationWrongAppID.rawValue == "attestation_wrong_app_id")
        #expect(APIErrorCode.credentialLocked.documentedStatuses == [423])
        #expect(APIErrorCode(rawValue: "not_in_the_table").documentedStatuses == [])
        let literal: APIErrorCode = "invalid_token"
        #expect(literal == .invalidToken)
    }
}
