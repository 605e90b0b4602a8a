// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The JetStream API over a NATSClient: requests to `<prefix>.<operation>` with JSON bodies, answers decoded or
// turned into JetStreamError. No state of its own: a context is a client, a prefix and a timeout.

public import NIOCore

/// JetStream over an existing ``NATSClient``: stream and consumer management, publishing with acknowledgement, pull fetch.
///
/// ```swift
/// let jetStream = client.jetStream()
/// try await jetStream.createStream(.init(name: "ORDERS", subjects: ["orders.>"]))
/// let ack = try await jetStream.publish("one", to: "orders.new", messageID: "order-1")
/// ```
///
/// Every call is a request on the client's connection, to `<apiPrefix>.<operation>`, answered with JSON. An answer
/// with an `error` object throws ``JetStreamError`` with the API's codes in ``JetStreamError/apiError``.
public struct JetStreamContext: Sendable {
    /// The client the requests go through.
    public let client: NATSClient
    /// The subject prefix of the API: `$JS.API`, or `$JS.<domain>.API` for a JetStream domain, or what an account
    /// import maps it to.
    public var apiPrefix: String
    /// How long a request waits for its answer.
    public var timeout: Duration

    /// The default API prefix.
    public static let defaultAPIPrefix = "$JS.API"

    /// Creates a context over `client`.
    ///
    /// - Parameters:
    ///   - client: The connection; connect it before the first request.
    ///   - apiPrefix: The API's subject prefix (without a trailing `.`).
    ///   - timeout: How long each request waits for its answer.
    public init(
        client: NATSClient, apiPrefix: String = JetStreamContext.defaultAPIPrefix, timeout: Duration = .seconds(5)
    ) {
        self.client = client
        self.apiPrefix = apiPrefix
        self.timeout = timeout
    }

    /// Creates a context for the JetStream of `domain` (API prefix `$JS.<domain>.API`).
    public init(client: NATSClient, domain: String, timeout: Duration = .seconds(5)) {
        self.init(client: client, apiPrefix: "$JS.\(domain).API", timeout: timeout)
    }

    /// The account's JetStream usage; the cheapest way to learn whether JetStream answers.
    ///
    /// - Throws: ``JetStreamError`` `notEnabled` when the server has no JetStream or the account has none.
    public func accountInfo() async throws(JetStreamError) -> JetStreamAccountInfo {
        try await request("INFO", as: JetStreamAccountInfo.self)
    }

    /// Sends `body` to `<apiPrefix>.<operation>` and decodes the answer as `Response`.
    ///
    /// The typed operations of this context are built on it; it is public for the operations they do not cover.
    ///
    /// - Parameters:
    ///   - operation: The API operation and its arguments, for example `STREAM.INFO.ORDERS`.
    ///   - body: The JSON body (empty for none).
    ///   - type: What the answer decodes to.
    /// - Throws: ``JetStreamError``: the API error's code, `notEnabled` when nothing answers (status 503),
    ///   `timeout`, `invalidResponse` for an answer that does not decode, `requestFailed` otherwise.
    public func request<Response: Decodable>(
        _ operation: String,
        body: ByteBuffer = ByteBuffer(),
        as type: Response.Type
    ) async throws(JetStreamError) -> Response {
        let subject = "\(apiPrefix).\(operation)"
        // A literal prefix; the operation may end with a filter subject that has wildcards.
        guard Self.isLiteral(apiPrefix), NATSSubjectValidator.isValidSubscribeSubject(subject) else {
            throw JetStreamError(.invalidSubject, "invalid JetStream API subject \(subject)")
        }
        let answer: NATSMessage
        do {
            answer = try await client.request(body, to: subject, timeout: timeout)
        } catch NATSError.Code.noResponders {
            throw JetStreamError(.notEnabled, "no JetStream answers on \(apiPrefix) (no responders)")
        } catch {
            throw Self.requestError(error, "\(operation)")
        }
        return try JetStreamJSON.decode(type, from: answer.payload)
    }

    /// A request's failure as a JetStream error.
    static func requestError(_ error: any Error, _ what: String) -> JetStreamError {
        if let natsError = error as? NATSError, natsError.code == .timeout {
            return JetStreamError(.timeout, "no answer to \(what) in time", underlying: error)
        }
        return JetStreamError(.requestFailed, "\(what) failed: \(error)", underlying: error)
    }

    /// Whether `name` can name a stream or a consumer: not empty, no `.`, `*`, `>`, whitespace or control
    /// characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && !name.utf8.contains { byte in
                byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
                    || byte == UInt8(ascii: ">")
            }
    }

    static func checkName(_ name: String, _ what: String) throws(JetStreamError) {
        guard isValidName(name) else {
            throw JetStreamError(.invalidName, "invalid \(what) name \"\(name)\": empty, or holds . * > or whitespace")
        }
    }
}

extension NATSClient {
    /// A ``JetStreamContext`` over this client.
    ///
    /// - Parameters:
    ///   - apiPrefix: The API's subject prefix (`$JS.API` by default).
    ///   - timeout: How long each JetStream request waits for its answer.
    public func jetStream(
        apiPrefix: String = JetStreamContext.defaultAPIPrefix,
        timeout: Duration = .seconds(5)
    ) -> JetStreamContext {
        JetStreamContext(client: self, apiPrefix: apiPrefix, timeout: timeout)
    }
}
