// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The error codes the server can send and the catalogue in openapi.yaml (`info.description`) are the same set:
/// an implementer in another language reads the catalogue, so a code missing there, or listed but never sent,
/// is a defect.
@Suite struct ErrorCodeCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")

    /// Every `Code(rawValue: "…")`, `Self(rawValue: "…")` and `.init(rawValue: "…")` in the server's sources
    /// that defines an ``APIFailure`` code (the files that build API failures).
    static func serverCodes() throws -> Set<String> {
        let directory = root.appendingPathComponent("Server/Sources/VettIDServer")
        var codes = Set<String>()
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("Generated") && !file.contains("Worker/") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            guard text.contains("APIFailure") else { continue }
            for match in text.matches(of: /(?:APIFailure\.Code|Code|Self|\.init)\(rawValue: "([a-z_]+)"\)/) {
                codes.insert(String(match.output.1))
            }
        }
        return codes
    }

    static func catalogueCodes() throws -> Set<String> {
        let spec = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        return Set(spec.matches(of: /\n    \| ([a-z_]+) \| [0-9]/).map { String($0.output.1) })
    }

    @Test func everyServerCodeIsCataloguedAndEveryCataloguedCodeExists() throws {
        let server = try Self.serverCodes()
        let catalogue = try Self.catalogueCodes()
        #expect(server.count > 40)
        #expect(server.subtracting(catalogue).sorted() == [], "sent but not in openapi.yaml")
        #expect(catalogue.subtracting(server).sorted() == [], "in openapi.yaml but never sent")
    }
}
