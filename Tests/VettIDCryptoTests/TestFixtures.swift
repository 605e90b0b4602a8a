import Foundation

/// Reads files from `../shared/fixtures`, relative to the root package (found from this file's path).
enum TestFixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/nonexistent")
    }()

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    static func decode<T: Decodable>(_ type: T.Type, from relativePath: String) throws -> T {
        try JSONDecoder().decode(type, from: data(relativePath))
    }
}

/// Hex helpers for vectors.
enum Hex {
    static func decode(_ text: String) -> [UInt8] {
        var bytes = [UInt8]()
        var iterator = text.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(digit(high) << 4 | digit(low)))
        }
        return bytes
    }

    private static func digit(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return c - UInt8(ascii: "A") + 10
        }
    }
}
