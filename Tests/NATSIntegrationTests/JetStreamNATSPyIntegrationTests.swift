// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// nats-py (PyPI `nats-py`, which scripts/setup-system installs) as a second JetStream client on the same real
/// nats-server: what this client publishes, nats-py fetches and acknowledges, and the other way round, with the same
/// payloads, headers and sequences. The Python side is `Resources/nats_py_peer.py`.
@Suite(
    .enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"),
    .enabled(if: NATSPyPeer.isAvailable, "python3 with nats-py is not installed (scripts/setup-system installs it)")
)
struct JetStreamNATSPyIntegrationTests {
    private func server() async throws -> (NATSServerProcess, NATSClient, JetStreamContext) {
        let server = try await NATSServerProcess(jetStream: true)
        let client = try NATSClient(
            configuration: .init(servers: [server.url], name: "swift-peer", reconnect: .disabled))
        try await client.connect()
        let jetStream = client.jetStream(timeout: .seconds(15))
        try await jetStream.createStream(.init(name: "PEER", subjects: ["peer.>"], storage: .memory))
        return (server, client, jetStream)
    }

    @Test func natsPyFetchesAndAcksWhatSwiftPublished() async throws {
        let (server, client, jetStream) = try await server()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        try await jetStream.createConsumer(.init(durableName: "py", filterSubject: "peer.swift"), on: "PEER")

        var sent: [(sequence: UInt64, payload: String, id: String)] = []
        for index in 1...5 {
            let payload = "swift \(index) \u{E9}t\u{E9}"
            let id = "swift-\(index)"
            let ack = try await jetStream.publish(
                payload, to: "peer.swift", messageID: id,
                headers: NATSHeaders([("Origin", "swift"), ("Index", "\(index)")]))
            #expect(!ack.duplicate)
            sent.append((ack.sequence, payload, id))
        }
        // Published again with the same IDs: duplicates, not stored.
        for (sequence, payload, id) in sent {
            let again = try await jetStream.publish(payload, to: "peer.swift", messageID: id)
            #expect(again.duplicate)
            #expect(again.sequence == sequence)
        }

        let fetched = try await NATSPyPeer.run(["fetch", server.url, "PEER", "py", "5"])
        #expect(fetched.count == 5)
        for (line, expected) in zip(fetched, sent) {
            #expect(line["subject"] as? String == "peer.swift")
            #expect(NATSPyPeer.payload(line) == expected.payload)
            #expect(line["stream_sequence"] as? Int == Int(expected.sequence))
            #expect(line["delivered"] as? Int == 1)
            let headers = line["headers"] as? [String: String]
            #expect(headers?["Nats-Msg-Id"] == expected.id)
            #expect(headers?["Origin"] == "swift")
            #expect(headers?["Index"] == expected.id.replacingOccurrences(of: "swift-", with: ""))
        }
        #expect(fetched.compactMap { $0["consumer_sequence"] as? Int } == [1, 2, 3, 4, 5])
        // nats-py's acks reached the server: nothing waits for an ack, nothing is left.
        let info = try await jetStream.consumerInfo("py", on: "PEER")
        #expect(info.ackPending == 0)
        #expect(info.pending == 0)
        #expect(info.ackFloor.streamSequence == sent.last?.sequence)
        #expect(try await jetStream.fetch(batch: 5, from: "py", on: "PEER", noWait: true).isEmpty)
    }

    @Test func swiftFetchesAndAcksWhatNATSPyPublished() async throws {
        let (server, client, jetStream) = try await server()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        try await jetStream.createConsumer(.init(durableName: "swift", filterSubject: "peer.py"), on: "PEER")

        // nats-py publishes each message twice with its Nats-Msg-Id; the stream stores it once.
        let acks = try await NATSPyPeer.run(["publish", server.url, "peer.py", "4", "py"])
        #expect(acks.count == 8)
        #expect(acks.compactMap { $0["sequence"] as? Int } == [1, 1, 2, 2, 3, 3, 4, 4])
        #expect(acks.compactMap { $0["duplicate"] as? Bool } == [false, true, false, true, false, true, false, true])
        #expect(acks.allSatisfy { $0["stream"] as? String == "PEER" })

        let messages = try await jetStream.fetch(batch: 4, from: "swift", on: "PEER", noWait: true)
        #expect(messages.map { String(buffer: $0.payload) } == (1...4).map { "py \($0) \u{E9}t\u{E9}" })
        #expect(messages.map(\.metadata.streamSequence) == [1, 2, 3, 4])
        #expect(messages.map { $0.headers?[JetStreamContext.messageIDHeader] } == (1...4).map { "py-\($0)" })
        #expect(messages.map { $0.headers?["Origin"] } == Array(repeating: "nats-py", count: 4))
        #expect(messages.map { $0.headers?["Index"] } == (1...4).map { "\($0)" })
        for message in messages { try await message.ackAcknowledged() }
        let info = try await jetStream.consumerInfo("swift", on: "PEER")
        #expect(info.ackPending == 0)
        #expect(info.ackFloor.streamSequence == 4)
    }
}

/// The nats-py side of the tests: `Resources/nats_py_peer.py` run with python3, its JSON lines read back.
enum NATSPyPeer {
    /// The script, found from this file's path.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Resources/nats_py_peer.py")

    /// Whether `python3` runs and imports `nats` (nats-py).
    static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import nats, nats.js"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exit = ProcessExitWatcher(process)
        do { try process.run() } catch { return false }
        return exit.wait(timeout: .seconds(30)) && exit.exitStatus == 0
    }()

    /// Runs the script with `arguments` and returns its JSON lines; throws with its standard error when it fails.
    static func run(_ arguments: [String]) async throws -> [[String: Any]] {
        let (status, output, errors) = try await onOwnThread { () throws -> (Int32?, Data, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path] + arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            let exit = ProcessExitWatcher(process)
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if !exit.wait(timeout: .seconds(120)) { exit.terminate(process) }
            return (exit.exitStatus, data, text)
        }
        guard status == 0 else {
            throw Failure(
                description: "nats_py_peer.py failed (status \(status.map(String.init) ?? "none")): \(errors)")
        }
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Failure(description: "nats_py_peer.py wrote a line that is not a JSON object: \(line)")
            }
            return object
        }
    }

    /// The script failed, or wrote something else than JSON lines.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The payload of a fetched line (base64 in the JSON), as UTF-8.
    static func payload(_ line: [String: Any]) -> String? {
        (line["payload"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
