// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A failure of a JetStream operation: an error the JetStream API answered with, a missing JetStream, or a
/// request that did not complete.
///
/// Match on `code`; the set is open and may grow. `catch JetStreamError.Code.streamNotFound` works through the
/// `~=` overload. When the server answered with an API error, ``apiError`` carries its `code` and `err_code`
/// whatever ``code`` they map to: an `err_code` without a named code of its own arrives as ``Code/apiError``.
public struct JetStreamError: CodedError {
    /// A stable code.
    public struct Code: ErrorCode {
        /// The stable name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `jetstream_not_enabled`: nothing answers on the API prefix (status 503: the server runs without
        /// JetStream, or the prefix or domain is wrong), or the account has no JetStream (`err_code` 10039).
        public static let notEnabled = Code(rawValue: "jetstream_not_enabled")
        /// `no_responders`: a publish reached no stream (status 503): no stream stores the subject, or the
        /// server runs without JetStream.
        public static let noResponders = Code(rawValue: "no_responders")
        /// `stream_not_found`: `err_code` 10059.
        public static let streamNotFound = Code(rawValue: "stream_not_found")
        /// `consumer_not_found`: `err_code` 10014.
        public static let consumerNotFound = Code(rawValue: "consumer_not_found")
        /// `stream_name_in_use`: a stream of that name exists with another configuration (`err_code` 10058).
        public static let streamNameInUse = Code(rawValue: "stream_name_in_use")
        /// `subjects_overlap`: the subjects overlap those of another stream (`err_code` 10065).
        public static let subjectsOverlap = Code(rawValue: "subjects_overlap")
        /// `wrong_last_sequence`: the stream's last sequence is not the expected one (`err_code` 10071).
        public static let wrongLastSequence = Code(rawValue: "wrong_last_sequence")
        /// `consumer_filter_mismatch`: the filter subject of a consumer create request's body differs from the one
        /// in its subject (`err_code` 10131).
        public static let consumerFilterMismatch = Code(rawValue: "consumer_filter_mismatch")
        /// `consumer_deleted`: the consumer was deleted while a pull waited (status 409 `Consumer Deleted`).
        public static let consumerDeleted = Code(rawValue: "consumer_deleted")
        /// `pull_refused`: the server refused a pull request (status 400 `Bad Request …`, 409 `Exceeded MaxWaiting`
        /// and the other 409s that are not the normal end of a pull); ``JetStreamError/apiError`` has the status and
        /// its text.
        public static let pullRefused = Code(rawValue: "pull_refused")
        /// `missed_heartbeat`: a pull with an idle heartbeat heard nothing from the server for two heartbeats.
        public static let missedHeartbeat = Code(rawValue: "missed_heartbeat")
        /// `api_error`: any other error of the JetStream API; ``JetStreamError/apiError`` has its codes.
        public static let apiError = Code(rawValue: "api_error")
        /// `invalid_name`: a stream or consumer name is empty or holds `.`, `*`, `>` or whitespace.
        public static let invalidName = Code(rawValue: "invalid_name")
        /// `invalid_request`: a fetch asked for a batch below 1 or a negative byte limit.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// `invalid_message_id`: a `Nats-Msg-Id` is empty or holds a line break.
        public static let invalidMessageID = Code(rawValue: "invalid_message_id")
        /// `invalid_subject`: a subject (or the API prefix) is not valid.
        public static let invalidSubject = Code(rawValue: "invalid_subject")
        /// `invalid_response`: the answer is not the JSON the API documents.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// `timeout`: no answer in time. A publish may still have been stored: retrying it with the same message
        /// ID stores it at most once within the stream's duplicate window.
        public static let timeout = Code(rawValue: "timeout")
        /// `cancelled`: the calling task was cancelled while a fetch waited.
        public static let cancelled = Code(rawValue: "cancelled")
        /// `request_failed`: the request could not be made or completed (the underlying `NATSError` says why:
        /// closed connection, full buffer, …).
        public static let requestFailed = Code(rawValue: "request_failed")
    }

    /// The code.
    public var code: Code
    /// What went wrong.
    public var message: String
    /// The JetStream API's error, when the server answered with one.
    public var apiError: JetStreamAPIError?
    /// The error that caused this one (a `NATSError`, a decoding error), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, apiError: JetStreamAPIError? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.apiError = apiError
        self.underlying = underlying
    }

    /// The error for an API error answer: a named code for the `err_code`s above, ``Code/apiError`` otherwise.
    public init(apiError: JetStreamAPIError) {
        let code: Code =
            switch apiError.errorCode {
            case 10039: .notEnabled
            case 10059: .streamNotFound
            case 10014: .consumerNotFound
            case 10058: .streamNameInUse
            case 10065: .subjectsOverlap
            case 10071: .wrongLastSequence
            case 10131: .consumerFilterMismatch
            default: .apiError
            }
        self.init(
            code, "\(apiError.description) (code \(apiError.code), err_code \(apiError.errorCode))", apiError: apiError)
    }
}

/// An error the JetStream API answered with: `{"error":{"code":404,"err_code":10059,"description":"…"}}`.
public struct JetStreamAPIError: Sendable, Hashable, Decodable {
    /// The HTTP-like status (`400`, `404`, `500`, `503`).
    public var code: Int
    /// The server's error number (`err_code`, for example 10059 for "stream not found"); 0 when absent.
    public var errorCode: Int
    /// The server's text.
    public var description: String

    /// Creates an API error.
    public init(code: Int, errorCode: Int, description: String) {
        self.code = code
        self.errorCode = errorCode
        self.description = description
    }

    private enum CodingKeys: String, CodingKey {
        case code
        case errorCode = "err_code"
        case description
    }

    /// Decodes the `error` object of an answer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(Int.self, forKey: .code)
        errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode) ?? 0
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
    }
}
