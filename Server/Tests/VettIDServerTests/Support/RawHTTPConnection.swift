// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One kept-alive TCP connection to a loopback HTTP/1.1 server, written and read byte by byte: for exchanges a
/// normal HTTP client will not make (a body sent in parts with a pause for the answer between them).
///
/// Every call blocks its thread; use it inside ``run(port:_:)``, which runs on a thread of its own (the
/// cooperative pool of a two-core machine has two threads, and blocking them keeps the server from answering).
final class RawHTTPConnection {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A response read off the connection.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
    }

    private let fd: Int32
    private var pending: [UInt8] = []

    private init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect() failed")
        }
    }

    deinit { close(fd) }

    /// Opens a connection to `port` and runs `body` with it on a thread of its own.
    static func run<T: Sendable>(port: Int, _ body: @escaping @Sendable (RawHTTPConnection) throws -> T) async throws
        -> T
    {
        try await onOwnThread { try body(try RawHTTPConnection(port: port)) }
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { socketSend(fd, $0) }
            guard sent > 0 else { throw Failure(description: "send() failed after \(offset) bytes") }
            offset += sent
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Writes `parts` one after another, 50 ms apart, and stops early (without an error) once an answer is waiting
    /// or the server stopped reading.
    func sendUntilAnswered(_ parts: [[UInt8]]) throws {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        for part in parts {
            if poll(&waiting, 1, 0) > 0 { return }
            let sent = part.withUnsafeBytes { socketSend(fd, $0) }
            if sent < 0 { return }
            if poll(&waiting, 1, 50) > 0 { return }
        }
    }

    /// Reads up to the end of the status line and returns its code.
    func readStatusLine() throws -> Int {
        while !pending.contains(UInt8(ascii: "\n")) { try receive() }
        return try Self.statusCode(String(decoding: pending.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self))
    }

    private static func statusCode(_ line: String) throws -> Int {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "no status line: \(line)")
        }
        return status
    }

    /// Reads one response with a `Content-Length` body (or none).
    func readAnswer() throws -> Answer {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = pending.indices.dropLast(3).first { Array(pending[$0..<$0 + 4]) == separator }
            if headEnd == nil { try receive() }
        }
        let head = String(decoding: pending[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        pending.removeFirst(headEnd! + 4)
        let status = try Self.statusCode(head[0])
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        while pending.count < length { try receive() }
        let body = Array(pending.prefix(length))
        pending.removeFirst(length)
        return Answer(status: status, headers: headers, body: body)
    }

    private func receive() throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw Failure(description: "the connection closed or timed out (\(pending.count) bytes pending)")
        }
        pending += buffer[0..<count]
    }
}

/// `send(2)` without SIGPIPE (a free function: inside the class, `send` names the method).
private func socketSend(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}
