// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Reads and writes small secret files with owner-only permissions.
///
/// Files are created 0600 (directories 0700) atomically: written to a temporary name, synced, then renamed.
/// Reading refuses a file that group or others can access, so a leaked permission is noticed, not ignored.
enum SecretFile {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Creates `path` (and parents) with mode 0700 if missing; refuses an existing directory others can read.
    static func ensureDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(path: path, reason: "not a directory") }
            if try permissions(path) & 0o077 != 0 {
                throw Failure(path: path, reason: "permissions are too open; run chmod 700 on it")
            }
            return
        }
        try FileManager.default.createDirectory(
            atPath: path,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }

    /// The file's bytes, or `nil` when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        if try permissions(path) & 0o077 != 0 {
            throw Failure(path: path, reason: "permissions are too open; run chmod 600 on it")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot read")
        }
        return [UInt8](data)
    }

    private static func permissions(_ path: String) throws -> Int {
        guard let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int else {
            throw Failure(path: path, reason: "cannot read its permissions")
        }
        return mode
    }

    /// Atomically writes `bytes` to `path` with mode 0600.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw Failure(path: temporary, reason: "cannot create (errno \(errno))") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                close(fd)
                unlink(temporary)
                throw Failure(path: temporary, reason: "write failed (errno \(errno))")
            }
            written += result
        }
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Failure(path: path, reason: "rename failed (errno \(errno))")
        }
    }
}
