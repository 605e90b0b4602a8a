// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The one loader of the shared test fixtures in `../shared/fixtures`, beside the root package.

public import Foundation

/// Files from the shared fixture directory: `shared/fixtures` next to the directory that holds the root
/// `Package.swift` (`/work/main` → `/work/shared/fixtures`).
///
/// The directory is found from this file's path (`#filePath`), never from the current directory, so it is the
/// same for the tests of this package and for those of `Server/`, whatever directory they run in.
///
/// A fixture that is missing or unreadable throws ``FixtureError``, whose description names the file and where it
/// was looked for: a test that loads it fails with that message instead of being skipped.
///
/// ```swift
/// let vectors = try TestFixtures.decode(Vectors.self, from: "hpke/rfc9180-x25519-sha256-chacha20poly1305.json")
/// let creds = try TestFixtures.string("nats/TestUser.creds")
/// ```
///
/// ## Topics
///
/// ### Locating fixtures
/// - ``directory``
/// - ``url(_:)``
///
/// ### Reading fixtures
/// - ``data(_:)``
/// - ``string(_:)``
/// - ``decode(_:from:decoder:)``
/// - ``jsonObject(_:)``
/// - ``FixtureError``
public enum TestFixtures {
    /// The shared fixture directory: `../shared/fixtures` relative to the directory of the root `Package.swift`.
    ///
    /// When no `Package.swift` is found above this file, it is a path that does not exist, so every read fails
    /// with a ``FixtureError`` that shows it.
    public static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/nonexistent/shared/fixtures")
    }()

    /// The URL of a file or directory of the fixture set; not checked for existence.
    ///
    /// - Parameter relativePath: A path relative to ``directory``, such as `"appattest/real"`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of a fixture file.
    ///
    /// - Parameter relativePath: A path relative to ``directory``, such as `"nats/TestUser.creds"`.
    /// - Throws: ``FixtureError`` when the file is missing or cannot be read.
    public static func data(_ relativePath: String) throws(FixtureError) -> Data {
        let file = url(relativePath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw FixtureError(relativePath: relativePath, file: file, problem: "is missing")
        }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw FixtureError(relativePath: relativePath, file: file, problem: "cannot be read (\(error))")
        }
    }

    /// The text of a fixture file, decoded as UTF-8.
    ///
    /// - Parameter relativePath: A path relative to ``directory``.
    /// - Throws: ``FixtureError`` when the file is missing, unreadable or not UTF-8.
    public static func string(_ relativePath: String) throws(FixtureError) -> String {
        guard let text = String(data: try data(relativePath), encoding: .utf8) else {
            throw FixtureError(relativePath: relativePath, file: url(relativePath), problem: "is not UTF-8 text")
        }
        return text
    }

    /// A JSON fixture decoded as `type`.
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type the file holds.
    ///   - relativePath: A path relative to ``directory``, such as `"dpop/rfc9449-examples.json"`.
    ///   - decoder: The decoder to use; a default `JSONDecoder` unless given.
    /// - Throws: ``FixtureError`` when the file is missing or unreadable, or does not decode as `type` (the
    ///   description then holds the decoding error).
    public static func decode<Value: Decodable>(
        _ type: Value.Type,
        from relativePath: String,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(FixtureError) -> Value {
        let bytes = try data(relativePath)
        do {
            return try decoder.decode(type, from: bytes)
        } catch {
            throw FixtureError(
                relativePath: relativePath, file: url(relativePath), problem: "does not decode as \(type): \(error)")
        }
    }

    /// A JSON fixture whose top level is an object, as `JSONSerialization` reads it.
    ///
    /// For vectors read field by field; prefer ``decode(_:from:decoder:)`` with a `Decodable` type.
    ///
    /// - Parameter relativePath: A path relative to ``directory``, such as `"nkeys/vectors.json"`.
    /// - Throws: ``FixtureError`` when the file is missing, unreadable, not JSON, or not a JSON object.
    public static func jsonObject(_ relativePath: String) throws(FixtureError) -> [String: Any] {
        let bytes = try data(relativePath)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: bytes)
        } catch {
            throw FixtureError(relativePath: relativePath, file: url(relativePath), problem: "is not JSON: \(error)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw FixtureError(relativePath: relativePath, file: url(relativePath), problem: "is not a JSON object")
        }
        return dictionary
    }
}
