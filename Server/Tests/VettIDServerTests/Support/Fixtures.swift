import Foundation

/// Locates `../shared/fixtures` relative to the repository root (the folder holding the SDK's Package.swift).
enum Fixtures {
    static var directory: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: url.appendingPathComponent("Server").path)
            {
                return url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            }
        }
        fatalError("cannot find the repository root from \(#filePath)")
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
