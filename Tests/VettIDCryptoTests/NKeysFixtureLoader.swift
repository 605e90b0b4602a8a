import Foundation

/// Reads files from /work/shared/fixtures: found from this file's path (the directory holding the root
/// Package.swift, then `../shared/fixtures`), never from the current directory.
enum NKeysFixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            }
            url = url.deletingLastPathComponent()
        }
        return url
    }()

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    static func text(_ relativePath: String) throws -> String {
        String(decoding: try data(relativePath), as: UTF8.self)
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: try data(relativePath))
        return try #require(object as? [String: Any])
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

import Testing
