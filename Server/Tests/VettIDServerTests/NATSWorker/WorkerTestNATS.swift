import Foundation
import VettIDCrypto
import VettIDMessaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real nats-server in operator mode for one test: a generated operator, system and application account
/// (memory resolver), its own temporary directory and a free loopback port. `cleanUp()` stops it; tests call it
/// in `defer`. Minimal on purpose; a shared launcher may replace it.
final class WorkerTestNATS: @unchecked Sendable {
    static let executable: String? = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { executable != nil }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    let directory: URL
    let account: NKeyPair
    private let configurationFile: URL
    private let lock = NSLock()
    private var process: Process

    var url: String { "nats://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? "" }

    /// Generates the trust, writes the configuration and starts nats-server.
    init() async throws {
        guard let executable = Self.executable else { throw Failure(description: "nats-server is not installed") }
        let now = Int64(Date().timeIntervalSince1970)
        let operatorKey = NKeyPair.generate(.operator)
        let system = NKeyPair.generate(.account)
        let account = NKeyPair.generate(.account)
        let operatorJWT = try NATSJWT.encode(
            NATSOperatorJWTClaims(
                subject: operatorKey.publicKey, name: "worker-test-operator",
                nats: NATSOperatorClaims(systemAccount: system.publicKey)),
            signedBy: operatorKey, now: now)
        let systemJWT = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: system.publicKey, name: "SYS", nats: NATSAccountClaims()), signedBy: operatorKey,
            now: now)
        let accountJWT = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: account.publicKey, name: "VETTID", nats: NATSAccountClaims()),
            signedBy: operatorKey, now: now)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vault-worker-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configurationFile = directory.appendingPathComponent("server.conf")
        var started: (Process, Int)?
        for _ in 0..<3 {
            let port = try Self.freePort()
            try """
            listen: 127.0.0.1:\(port)
            operator: \(operatorJWT)
            system_account: \(system.publicKey)
            resolver: MEMORY
            resolver_preload: {
              \(system.publicKey): \(systemJWT)
              \(account.publicKey): \(accountJWT)
            }

            """.write(to: configurationFile, atomically: true, encoding: .utf8)
            let process = try await Self.launch(executable, configurationFile, directory: directory, truncateLog: true)
            if await Self.waitUntilReady(process, directory: directory) {
                started = (process, port)
                break
            }
            if process.isRunning { process.terminate() }
        }
        guard let (process, port) = started else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw Failure(description: "nats-server did not start: \(log.suffix(2000))")
        }
        self.process = process
        self.port = port
        self.directory = directory
        self.account = account
        self.configurationFile = configurationFile
    }

    /// A user of the application account with exactly `permissions` and a fresh user NKey.
    func user(_ permissions: NatsPermissionSet?, name: String = "user") throws -> (jwt: String, seed: String) {
        let user = NKeyPair.generate(.user)
        let claims = NATSUserClaims(
            permissions: permissions.map {
                NATSPermissions(publish: NATSPermission(allow: $0.publish), subscribe: NATSPermission(allow: $0.subscribe))
            } ?? NATSPermissions())
        let jwt = try NATSJWT.encode(
            NATSUserJWTClaims(subject: user.publicKey, name: name, nats: claims), signedBy: account,
            now: Int64(Date().timeIntervalSince1970))
        return (jwt, try user.encodedSeed())
    }

    /// Stops nats-server and starts it again on the same port with the same configuration.
    func restart() async throws {
        stop()
        guard let executable = Self.executable else { throw Failure(description: "nats-server is not installed") }
        var restarted: Process?
        // The port was just released; give it a few tries.
        for _ in 0..<5 {
            let process = try await Self.launch(executable, configurationFile, directory: directory, truncateLog: false)
            if await Self.waitUntilReady(process, directory: directory, after: "restart") {
                restarted = process
                break
            }
            if process.isRunning { process.terminate() }
            try await Task.sleep(for: .milliseconds(200))
        }
        guard let restarted else { throw Failure(description: "nats-server did not restart on port \(port): \(log.suffix(2000))") }
        lock.withLock { process = restarted }
    }

    func stop() {
        let process = lock.withLock { self.process }
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    func cleanUp() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private static func launch(_ executable: String, _ configuration: URL, directory: URL, truncateLog: Bool) async throws -> Process {
        let logFile = directory.appendingPathComponent("server.log")
        if truncateLog || !FileManager.default.fileExists(atPath: logFile.path) {
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logFile)
        log.seekToEndOfFile()
        if !truncateLog { log.write(Data("--- restart\n".utf8)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-c", configuration.path]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        return process
    }

    /// Waits for "Server is ready" in the log (after the `after` marker line, for restarts).
    private static func waitUntilReady(_ process: Process, directory: URL, after marker: String? = nil) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        let logFile = directory.appendingPathComponent("server.log")
        while ContinuousClock.now < deadline {
            guard process.isRunning else { return false }
            var text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if marker != nil, let range = text.range(of: "--- restart", options: .backwards) {
                text = String(text[range.upperBound...])
            }
            if text.contains("Server is ready") { return true }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    /// A loopback port nobody listens on right now (bound to port 0, then released).
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
