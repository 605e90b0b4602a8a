// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small POSIX file helpers with explicit modes (Foundation cannot create a file with a mode atomically).
enum POSIXFile {
    /// Creates `path` exclusively with `mode`, writes `data`, and syncs it to disk.
    static func createExclusive(_ path: String, data: Data, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("create", path) }
        var closed = false
        defer { if !closed { _ = close(fd) } }
        // The umask may have narrowed the mode; never widened it. Set it exactly.
        guard fchmod(fd, mode) == 0 else { throw ioError("chmod", path) }
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ioError("write", path)
                }
                offset += written
            }
        }
        guard fsync(fd) == 0 else { throw ioError("fsync", path) }
        closed = true
        guard close(fd) == 0 else { throw ioError("close", path) }
    }

    /// Reads the whole file, or returns `nil` when it does not exist.
    static func readIfExists(_ path: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SecureStoreError(code: .io, message: "Cannot read \(path).", underlying: error)
        }
    }

    /// The permission bits of `path`.
    static func permissions(_ path: String) throws -> mode_t {
        // FileManager rather than stat(2): `struct stat` is visible through several clang modules and
        // MemberImportVisibility then rejects its members depending on the build graph.
        do {
            guard let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int else {
                throw ioError("stat", path)
            }
            return mode_t(mode & 0o7777)
        } catch let error as SecureStoreError {
            throw error
        } catch {
            throw ioError("stat", path)
        }
    }

    /// Atomically replaces `destination` with `source` (same directory) and syncs the directory.
    static func replace(_ destination: String, with source: String) throws {
        guard rename(source, destination) == 0 else { throw ioError("rename", destination) }
        syncDirectory(containing: destination)
    }

    /// Creates `directory` (and its missing parents) with `mode` for every directory it creates.
    static func makeDirectory(_ directory: String, mode: mode_t) throws {
        if FileManager.default.fileExists(atPath: directory) { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory { try makeDirectory(parent, mode: mode) }
        if mkdir(directory, mode) != 0 && errno != EEXIST { throw ioError("mkdir", directory) }
        _ = chmod(directory, mode)
    }

    /// Removes a file, ignoring errors.
    static func removeQuietly(_ path: String) {
        _ = unlink(path)
    }

    static func syncDirectory(containing path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }

    /// Whether the error is "file exists" from ``createExclusive(_:data:mode:)``.
    static func isAlreadyExists(_ error: SecureStoreError) -> Bool {
        error.status == EEXIST
    }

    static func ioError(_ operation: String, _ path: String) -> SecureStoreError {
        let code = errno
        return SecureStoreError(code: .io, message: "\(operation) failed for \(path).", status: code)
    }
}
