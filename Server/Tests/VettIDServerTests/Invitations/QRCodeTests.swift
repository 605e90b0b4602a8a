// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDServer

@Suite struct QRCodeTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The PNG we write decodes, with Debian's zbar, to exactly the payload we encoded.
    @Test(.enabled(if: zbarimg != nil, "zbarimg (zbar-tools) is not installed; scripts/setup-system installs it"))
    func pngRoundTripsThroughZbar() throws {
        let payload = InvitationPayload.make(
            code: try #require(InvitationCode(parsing: "K7QW-M3RT")), origin: "http://127.0.0.1:8080")
        #expect(payload == "vettid://enroll?code=K7QW-M3RT&api=http%3A%2F%2F127.0.0.1%3A8080")
        let png = try QRCode(encoding: payload).png()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID()).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.zbarimg))
        process.arguments = ["--raw", "-q", file.path]
        let output = Pipe()
        process.standardOutput = output
        let exit = ProcessExitWatcher(process)
        try process.run()
        let decoded = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exit.wait(timeout: .seconds(30)))
        #expect(exit.exitStatus == 0)
        #expect(decoded.trimmingCharacters(in: .newlines) == payload)
    }

    @Test func pngIsWellFormed() throws {
        let png = try QRCode(encoding: "hello").png(scale: 2, margin: 1)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        #expect(String(decoding: png.suffix(8).prefix(4), as: UTF8.self) == "IEND")
        // CRC-32 and Adler-32 against their standard check values.
        #expect(PNGEncoding.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGEncoding.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func terminalTextHasOneLinePerTwoRowsWithQuietZone() throws {
        let code = try QRCode(encoding: "vettid://enroll?code=AAAA-BBBB")
        let lines = code.terminalText(margin: 2).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == (code.width + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.width + 4 })
        #expect(lines.first?.allSatisfy { $0 == "█" } == true, "the quiet zone is drawn light (ink) on dark terminals")
    }
}

@Suite struct InvitationCodeTests {
    @Test func randomCodesUseTheAlphabetAndShape() {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let code = InvitationCode.random().value
            #expect(code.count == 9)
            #expect(Array(code)[4] == "-")
            #expect(code.replacingOccurrences(of: "-", with: "").allSatisfy(InvitationCode.alphabet.contains))
            seen.insert(code)
        }
        #expect(seen.count == 2_000)
        let characters = Set(seen.joined().replacingOccurrences(of: "-", with: ""))
        #expect(characters == Set(InvitationCode.alphabet), "every character of the alphabet shows up")
    }

    @Test(arguments: [("k7qw-m3rt", "K7QW-M3RT"), (" K7QWM3RT ", "K7QW-M3RT"), ("K7QW-M3RT", "K7QW-M3RT")])
    func parsesWhatPeopleType(text: String, code: String) {
        #expect(InvitationCode(parsing: text)?.value == code)
    }

    @Test(arguments: ["K7QW-M3R", "K7QW-M3RTX", "K7QW-M0RT", "K7QW-M1RT", "O7QW-M3RT", "K7QW_M3RT", ""])
    func refusesNonCodes(text: String) {
        #expect(InvitationCode(parsing: text) == nil)
    }
}
