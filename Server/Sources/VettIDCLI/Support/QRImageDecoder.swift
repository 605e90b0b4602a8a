// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDServer

/// Decodes the QR code in an image file with `zbarimg` (Debian `zbar-tools`, installed by scripts/setup-system).
enum QRImageDecoder {
    /// The text of the first QR code in the image at `path`.
    static func decode(path: String) throws -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CLIFailure(code: "unreadable_image", message: "cannot read the image \(path)")
        }
        guard
            let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw CLIFailure(code: "zbarimg_missing", message: "zbarimg is not installed (Debian package zbar-tools)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        process.arguments = ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exit = ProcessExitWatcher(process)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        exit.wait(timeout: .seconds(30))
        let text = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard exit.exitStatus == 0, !text.isEmpty else {
            throw CLIFailure(code: "no_qr_code", message: "no QR code was found in \(path)")
        }
        return text
    }
}
