import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a loopback server over a plain TCP socket and reads the answer's status line: for requests a
/// normal HTTP client will not send (methods like TRACE).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Sends `head` then each of `chunks` as written and returns the first response line's status code.
    ///
    /// The socket calls block, so they run on a thread of their own: on a two-core machine the cooperative pool
    /// has two threads, and blocking them would keep the server under test from answering.
    static func status(port: Int, head: String, chunks: [[UInt8]] = []) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingStatus(port: port, head: head, chunks: chunks) })
            }
        }
    }

    private static func blockingStatus(port: Int, head: String, chunks: [[UInt8]]) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }
        for part in [Array(head.utf8)] + chunks {
            // The server may answer and close before the whole body is written. Stop writing as soon as an answer
            // is waiting: bytes it never reads would make its close a reset, which can discard the answer here.
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&waiting, 1, 0) > 0 { break }
            let sent = part.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { break }
            if poll(&waiting, 1, 50) > 0 { break }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "no status line: \(line)") }
        return status
    }
}
