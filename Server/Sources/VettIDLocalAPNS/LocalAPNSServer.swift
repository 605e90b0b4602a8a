// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import VettIDCrypto
import VettIDServer

/// A local APNs: HTTP/2 over TLS on loopback (ALPN `h2` only), checking requests as Apple documents them and
/// answering as APNs does, or as a test cues it. The server's tests run the provider against it, and `vettid demo`
/// shows the wake push it received; it is never part of a deployment.
///
/// Every request is checked in Apple's order: `POST` (else 405 `MethodNotAllowed`), the path `/3/device/<token>`
/// (404 `BadPath`) with a 64-hex-digit token (400 `BadDeviceToken`); the provider token: present (403
/// `MissingProviderToken`), a compact ES256 JWT with the configured `kid` and `iss`, signed by the configured key
/// (403 `InvalidProviderToken`), `iat` at most an hour old (403 `ExpiredProviderToken`); `apns-topic` present (400
/// `MissingTopic`) and allowed (400 `TopicDisallowed`); `apns-push-type` (400 `InvalidPushType`); `apns-priority`
/// 10, 5 or 1 (400 `BadPriority`); `apns-expiration` a number (400 `BadExpirationDate`); `apns-id` a UUID (400
/// `BadMessageId`); `apns-collapse-id` at most 64 bytes (400 `BadCollapseId`); a payload present (400
/// `PayloadEmpty`) of at most 4 KiB (413 `PayloadTooLarge`). A provider that changes its token on one connection
/// sooner than ``minimumTokenInterval`` after the previous change gets 429 `TooManyProviderTokenUpdates` (a change
/// right after a 403 `ExpiredProviderToken` is allowed). A request that passes gets its ``Cue`` (200 with `apns-id`
/// unless cued otherwise).
public final class LocalAPNSServer: Sendable {
    /// How to answer requests for one device token once they pass the checks.
    public enum Cue: Sendable, Equatable {
        /// 200.
        case ok
        /// 400 `BadDeviceToken`.
        case badDeviceToken
        /// 400 `DeviceTokenNotForTopic`.
        case deviceTokenNotForTopic
        /// 403 `ExpiredProviderToken` to the first provider token seen for this device, 200 to any other.
        case expiredProviderTokenOnce
        /// 403 `ExpiredProviderToken` always.
        case expiredProviderTokenAlways
        /// 410 `Unregistered` with this `timestamp` (milliseconds since 1970).
        case unregistered(timestamp: Int64)
        /// 413 `PayloadTooLarge`.
        case payloadTooLarge
        /// 429 `TooManyRequests` to the first `times` requests, then 200.
        case tooManyRequests(times: Int)
        /// 500 `InternalServerError` to the first `times` requests, then 200.
        case internalServerError(times: Int)
        /// 503 `ServiceUnavailable` to the first `times` requests, then 200.
        case serviceUnavailable(times: Int)
        /// GOAWAY (last stream 0) and the connection closed instead of an answer, the first `times` times; then 200.
        case goAway(times: Int)
        /// No answer at all (a stalled APNs).
        case stall
    }

    /// One request as received, with the answer given.
    public struct Exchange: Sendable {
        /// Which connection it came on (1 for the first).
        public let connection: Int
        public let method: String
        public let path: String
        /// The request's headers (lower-case names), pseudo-headers left out.
        public let headers: [String: String]
        public let payload: [UInt8]
        /// The status answered (0 for a GOAWAY or no answer).
        public let status: Int
        /// Apple's reason sent with a refusal.
        public let reason: String?
        /// The device token from the path (tests only: the server under test never logs it).
        public var deviceToken: String { String(path.split(separator: "/").last ?? "") }
        /// The provider token sent.
        public var providerToken: String? {
            headers["authorization"].flatMap { $0.hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        }
    }

    /// What the stream handler does.
    enum Answer: Sendable {
        case respond(status: Int, apnsID: String, body: [UInt8]?)
        case goAway
        case stall
    }

    /// The port it listens on (loopback).
    public let port: Int
    /// The CA that signed the server's certificate (PEM), for `apns_ca_file`.
    public let caPEM: String
    /// The shortest time between two provider-token changes on one connection.
    public let minimumTokenInterval: TimeInterval

    private let channel: any Channel
    private let publicKey: P256.Signing.PublicKey
    private let keyID: String
    private let teamID: String
    private let topics: Set<String>
    private let now: @Sendable () -> Date

    private struct Connection {
        var token: String?
        var adoptedAt: Date = .distantPast
        var changeAllowed = false
    }

    private struct State {
        var cues: [String: Cue]
        var served: [String: Int] = [:]
        var firstToken: [String: String] = [:]
        var connections: [Int: Connection] = [:]
        var nextConnection = 0
        var exchanges: [Exchange] = []
        var goAways = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Requests received so far, in order.
    public var exchanges: [Exchange] { state.withLockedValue { $0.exchanges } }
    /// Connections accepted so far.
    public var connectionCount: Int { state.withLockedValue { $0.nextConnection } }
    /// GOAWAY frames sent so far.
    public var goAwayCount: Int { state.withLockedValue { $0.goAways } }

    /// Starts a server that accepts provider tokens signed by `publicKey` as `keyID` of `teamID`, for `topics`,
    /// reading the time from `now`.
    public init(
        publicKey: P256.Signing.PublicKey, keyID: String, teamID: String, topics: Set<String>,
        cues: [String: Cue] = [:], minimumTokenInterval: TimeInterval = 20 * 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        let material = try NATSTLSMaterial.generate(hosts: ["127.0.0.1", "localhost"])
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(material.certificatePEM.utf8)).map {
                .certificate($0)
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(material.privateKeyPEM.utf8), format: .pem)))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let state = NIOLockedValueBox(State(cues: cues))
        self.state = state
        self.caPEM = material.caPEM
        self.minimumTokenInterval = minimumTokenInterval
        self.publicKey = publicKey
        self.keyID = keyID
        self.teamID = teamID
        self.topics = topics
        self.now = now
        let decide = Decider()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                let connection = state.withLockedValue { state in
                    state.nextConnection += 1
                    state.connections[state.nextConnection] = Connection()
                    return state.nextConnection
                }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    _ = try child.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(
                                LocalAPNSStreamHandler(connection: connection, decide: decide))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
        decide.server.withLockedValue { $0 = self }
    }

    /// The server as the stream handlers reach it (set once the listener is bound).
    final class Decider: Sendable {
        let server = NIOLockedValueBox<LocalAPNSServer?>(nil)

        func answer(connection: Int, headers: HPACKHeaders, payload: [UInt8]) -> Answer {
            guard let server = server.withLockedValue({ $0 }) else {
                return .respond(status: 503, apnsID: UUID().uuidString, body: nil)
            }
            return server.answer(connection: connection, headers: headers, payload: payload)
        }
    }

    /// `https://127.0.0.1:<port>`.
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Writes ``caPEM`` to a file in `directory` and returns its path.
    public func writeCA(to directory: String) throws -> String {
        let path = directory + "/apns-ca.pem"
        try caPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Answers requests for `deviceToken` (lower-case hex) with `cue` from now on.
    public func cue(_ cue: Cue, for deviceToken: String) {
        state.withLockedValue { $0.cues[deviceToken] = cue }
    }

    /// Stops listening.
    public func stop() async {
        try? await channel.close()
    }

    /// Checks one request and decides its answer; records it.
    func answer(connection: Int, headers: HPACKHeaders, payload: [UInt8]) -> Answer {
        let method = headers.first(name: ":method") ?? ""
        let path = headers.first(name: ":path") ?? ""
        let apnsID = headers.first(name: "apns-id") ?? UUID().uuidString
        var fields: [String: String] = [:]
        for (name, value, _) in headers where !name.hasPrefix(":") { fields[name] = value }
        let verdict = state.withLockedValue { state in
            decide(
                state: &state, connection: connection, method: method, path: path, fields: fields, payload: payload)
        }
        let (status, reason): (Int, String?) =
            switch verdict {
            case .answer(let status, let reason, _): (status, reason)
            case .goAway: (0, "GOAWAY")
            case .stall: (0, "stalled")
            }
        state.withLockedValue { state in
            state.exchanges.append(
                Exchange(
                    connection: connection, method: method, path: path, headers: fields, payload: payload,
                    status: status, reason: reason))
            if case .goAway = verdict { state.goAways += 1 }
        }
        switch verdict {
        case .goAway: return .goAway
        case .stall: return .stall
        case .answer(let status, nil, _): return .respond(status: status, apnsID: apnsID, body: nil)
        case .answer(let status, let reason?, let timestamp):
            var members: [(String, JSONValue)] = [("reason", .string(reason))]
            if let timestamp { members.append(("timestamp", .integer(timestamp))) }
            return .respond(status: status, apnsID: apnsID, body: JSONValue.object(members).serialized())
        }
    }

    /// What a request gets: an answer (status, reason, 410 timestamp), a GOAWAY, or nothing.
    private enum Verdict {
        case answer(Int, String?, Int64?)
        case goAway
        case stall
    }

    // swiftlint:disable:next cyclomatic_complexity function_parameter_count
    private func decide(
        state: inout State, connection: Int, method: String, path: String, fields: [String: String],
        payload: [UInt8]
    ) -> Verdict {
        guard method == "POST" else { return .answer(405, "MethodNotAllowed", nil) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "3", parts[2] == "device" else {
            return .answer(404, "BadPath", nil)
        }
        let token = String(parts[3])
        guard token.utf8.count == 64,
            token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return .answer(400, "BadDeviceToken", nil) }
        let date = now()
        guard let authorization = fields["authorization"], authorization.hasPrefix("bearer ") else {
            return .answer(403, "MissingProviderToken", nil)
        }
        let jwt = String(authorization.dropFirst(7))
        switch check(jwt: jwt, now: date) {
        case .some(let reason): return .answer(403, reason, nil)
        case .none: break
        }
        // The token-change throttle, per connection.
        var link = state.connections[connection] ?? Connection()
        defer { state.connections[connection] = link }
        if link.token != jwt {
            let tooSoon = link.token != nil && date.timeIntervalSince(link.adoptedAt) < minimumTokenInterval
            let allowed = link.changeAllowed
            link.token = jwt
            link.adoptedAt = date
            link.changeAllowed = false
            if tooSoon && !allowed { return .answer(429, "TooManyProviderTokenUpdates", nil) }
        }
        guard let topic = fields["apns-topic"] else { return .answer(400, "MissingTopic", nil) }
        guard topics.contains(topic) else { return .answer(400, "TopicDisallowed", nil) }
        guard let pushType = fields["apns-push-type"],
            ["alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity"]
                .contains(pushType)
        else { return .answer(400, "InvalidPushType", nil) }
        if let priority = fields["apns-priority"], !["10", "5", "1"].contains(priority) {
            return .answer(400, "BadPriority", nil)
        }
        if let expiration = fields["apns-expiration"], Int64(expiration) == nil {
            return .answer(400, "BadExpirationDate", nil)
        }
        if let id = fields["apns-id"], UUID(uuidString: id) == nil { return .answer(400, "BadMessageId", nil) }
        if let collapse = fields["apns-collapse-id"], collapse.utf8.count > 64 {
            return .answer(400, "BadCollapseId", nil)
        }
        guard !payload.isEmpty else { return .answer(400, "PayloadEmpty", nil) }
        guard payload.count <= 4_096 else { return .answer(413, "PayloadTooLarge", nil) }

        let cue = state.cues[token] ?? .ok
        let served = state.served[token, default: 0]
        state.served[token] = served + 1
        switch cue {
        case .ok: return .answer(200, nil, nil)
        case .badDeviceToken: return .answer(400, "BadDeviceToken", nil)
        case .deviceTokenNotForTopic: return .answer(400, "DeviceTokenNotForTopic", nil)
        case .expiredProviderTokenOnce:
            let first = state.firstToken[token] ?? jwt
            state.firstToken[token] = first
            guard jwt == first else { return .answer(200, nil, nil) }
            link.changeAllowed = true
            return .answer(403, "ExpiredProviderToken", nil)
        case .expiredProviderTokenAlways:
            link.changeAllowed = true
            return .answer(403, "ExpiredProviderToken", nil)
        case .unregistered(let timestamp): return .answer(410, "Unregistered", timestamp)
        case .payloadTooLarge: return .answer(413, "PayloadTooLarge", nil)
        case .tooManyRequests(let times):
            return served < times ? .answer(429, "TooManyRequests", nil) : .answer(200, nil, nil)
        case .internalServerError(let times):
            return served < times ? .answer(500, "InternalServerError", nil) : .answer(200, nil, nil)
        case .serviceUnavailable(let times):
            return served < times ? .answer(503, "ServiceUnavailable", nil) : .answer(200, nil, nil)
        case .goAway(let times):
            return served < times ? .goAway : .answer(200, nil, nil)
        case .stall:
            return .stall
        }
    }

    /// `nil` when `jwt` is a provider token APNs accepts at `now`, else the 403 reason.
    private func check(jwt: String, now: Date) -> String? {
        guard let jws = try? CompactJWS(parsing: jwt),
            jws.header["alg"]?.stringValue == "ES256", jws.header["kid"]?.stringValue == keyID,
            jws.payload["iss"]?.stringValue == teamID, let issuedAt = jws.payload["iat"]?.int64Value,
            ES256.isValid(signature: jws.signature, for: jws.signingInput, publicKey: publicKey)
        else { return "InvalidProviderToken" }
        let age = Int64(now.timeIntervalSince1970.rounded(.down)) - issuedAt
        if age > 3_600 { return "ExpiredProviderToken" }
        if age < -60 { return "InvalidProviderToken" }
        return nil
    }
}

/// One HTTP/2 stream of the test server: collects the request's headers and data, then writes the answer (or a
/// GOAWAY on the connection).
final class LocalAPNSStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let connection: Int
    private let decide: LocalAPNSServer.Decider
    private var headers = HPACKHeaders()
    private var payload: [UInt8] = []

    init(connection: Int, decide: LocalAPNSServer.Decider) {
        self.connection = connection
        self.decide = decide
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            headers.add(contentsOf: frame.headers)
            if frame.endStream { respond(context: context) }
        case .data(let frame):
            if case .byteBuffer(let buffer) = frame.data { payload += buffer.readableBytesView }
            if frame.endStream { respond(context: context) }
        default:
            break
        }
    }

    private func respond(context: ChannelHandlerContext) {
        switch decide.answer(connection: connection, headers: headers, payload: payload) {
        case .respond(let status, let apnsID, let body):
            let head = HPACKHeaders([(":status", String(status)), ("apns-id", apnsID)])
            context.write(wrapOutboundOut(.headers(.init(headers: head, endStream: body == nil))), promise: nil)
            if let body {
                let buffer = context.channel.allocator.buffer(bytes: body)
                context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(buffer), endStream: true))), promise: nil)
            }
            context.flush()
        case .goAway:
            guard let parent = context.channel.parent else { return }
            let frame = HTTP2Frame(
                streamID: .rootStream, payload: .goAway(lastStreamID: .rootStream, errorCode: .noError, opaqueData: nil)
            )
            parent.writeAndFlush(frame).whenComplete { _ in parent.close(promise: nil) }
        case .stall:
            break
        }
    }
}
