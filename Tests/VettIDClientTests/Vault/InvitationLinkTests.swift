// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDClient

@Suite("InvitationLink")
struct InvitationLinkTests {
    @Test("parses the documented example")
    func parsesExample() throws {
        let link = try EnrollmentInvitationLink(
            parsing: "vettid://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fapi.example.com")
        #expect(link.code == "K7QM-3XPA")
        #expect(link.apiOrigin.absoluteString == "https://api.example.com")
    }

    @Test("normalises case and whitespace; keeps a port; re-encodes the payload")
    func normalises() throws {
        let link = try EnrollmentInvitationLink(
            parsing: "  VETTID://Enroll?code=k7qm-3xpa&api=http%3A%2F%2F127.0.0.1%3A8080&v=2 \n")
        #expect(link.code == "K7QM-3XPA")
        #expect(link.apiOrigin.absoluteString == "http://127.0.0.1:8080")
        #expect(link.payload == "vettid://enroll?code=K7QM-3XPA&api=http%3A%2F%2F127.0.0.1%3A8080")
        #expect(try EnrollmentInvitationLink(parsing: link.payload) == link)
        #expect(try EnrollmentInvitationLink.normalizedCode("k7qm3xpa") == "K7QM-3XPA")
    }

    @Test(
        "refuses codes outside the alphabet or the format",
        arguments: [
            "K7QM-3XP0", "K7QM-3XPO", "K7QM-3XP1", "K7QM-3XPI", "K7QM-3XPL", "K7QM3XPA9", "K7Q-M3XPA", "K7QM-3XP", "",
            "K7QM_3XPA", "K7QM-3XPÄ",
        ])
    func refusesBadCodes(code: String) {
        #expect(
            throws: InvitationLinkError(
                code: .invalidCode,
                message: "An invitation code is XXXX-XXXX over ABCDEFGHJKMNPQRSTUVWXYZ23456789 (no 0, O, 1, I or L).")
        ) {
            try EnrollmentInvitationLink.normalizedCode(code)
        }
    }

    @Test(
        "refuses links that are not invitations, or lack or repeat a field",
        arguments: [
            ("https://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fa.example", InvitationLinkError.Code.notAnInvitation),
            ("vettid://login?code=K7QM-3XPA&api=https%3A%2F%2Fa.example", .notAnInvitation),
            ("vettid://enroll/x?code=K7QM-3XPA&api=https%3A%2F%2Fa.example", .notAnInvitation),
            ("vettid://enroll?api=https%3A%2F%2Fa.example", .missingCode),
            ("vettid://enroll?code=K7QM-3XPA&code=K7QM-3XPB&api=https%3A%2F%2Fa.example", .missingCode),
            ("vettid://enroll?code=K7QM-3XPA", .missingAPIOrigin),
            ("vettid://enroll?code=K7QM-0XPA&api=https%3A%2F%2Fa.example", .invalidCode),
            ("vettid://enroll?code=K7QM-3XPA&api=ftp%3A%2F%2Fa.example", .invalidAPIOrigin),
            ("vettid://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fa.example%2Fpath", .invalidAPIOrigin),
            ("vettid://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fuser%40a.example", .invalidAPIOrigin),
            ("vettid://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fa.example%3Fq%3D1", .invalidAPIOrigin),
            ("vettid://enroll?code=K7QM-3XPA&api=a.example", .invalidAPIOrigin),
        ])
    func refusesBadLinks(payload: String, code: InvitationLinkError.Code) {
        do {
            _ = try EnrollmentInvitationLink(parsing: payload)
            Issue.record("accepted \(payload)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test("the description never shows the code")
    func descriptionHidesCode() throws {
        let link = try EnrollmentInvitationLink(code: "k7qm-3xpa", apiOrigin: URL(string: "https://api.example.com/")!)
        #expect(link.apiOrigin.absoluteString == "https://api.example.com")
        #expect(!link.description.contains("K7QM"))
    }
}
