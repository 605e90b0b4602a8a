// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import VettIDCore

/// Retries idempotent requests after network errors and 502/503/504 answers, with exponential backoff and jitter.
///
/// Place it outside ``ErrorMappingMiddleware`` so that it sees the typed ``APIError`` of a failed response.
/// Requests with a body that can only be read once are never retried. Cancellation stops retrying at once.
public struct RetryMiddleware: ClientMiddleware {
    /// The methods that may be sent more than once (RFC 9110 §9.2.2, minus TRACE).
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options]

    let policy: RetryPolicy

    /// Creates the middleware.
    /// - Parameter policy: The retry policy.
    public init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// Sends the request, retrying per the policy.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let replayable = body == nil || body?.iterationBehavior == .multiple
        guard Self.idempotentMethods.contains(request.method), replayable, policy.maxAttempts > 1 else {
            return try await next(request, body, baseURL)
        }
        var attempt = 1
        while true {
            do {
                return try await next(request, body, baseURL)
            } catch {
                guard attempt < policy.maxAttempts, let retryAfter = retryDecision(for: error) else { throw error }
                try await policy.sleep(policy.delay(beforeRetry: attempt, retryAfter: retryAfter.value))
                attempt += 1
            }
        }
    }

    /// Whether `error` is retryable, and the server's `Retry-After` if it gave one.
    private func retryDecision(for error: any Error) -> RetryAfter? {
        if Task.isCancelled || error is CancellationError { return nil }
        if let apiError = APIError.unwrap(error) {
            guard let status = apiError.status, policy.retryableStatuses.contains(status) else { return nil }
            return RetryAfter(value: apiError.retryAfter)
        }
        if let clientError = error as? ClientError, clientError.underlyingError is CancellationError { return nil }
        // Anything else that escapes the inner chain is a transport failure: no response arrived.
        return RetryAfter(value: nil)
    }

    private struct RetryAfter {
        var value: Duration?
    }
}
