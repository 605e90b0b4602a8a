// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1

/// How the HTTP measurements run.
struct LoadSettings: Sendable {
    /// Concurrent clients, each with its own connection, each sending its next request when the last answered.
    var connections: Int
    /// How long each measurement runs.
    var duration: Duration
    /// How long each warm-up runs before its measurement (results discarded).
    var warmup: Duration
}

/// What one measurement counted.
struct LoadResult: Sendable {
    /// 2xx answers with their body read.
    var succeeded = 0
    /// Non-2xx answers and transport errors.
    var errors = 0
    /// Time spent building requests (for the proxied run: creating the DPoP proof), summed over clients.
    var buildTime = Duration.zero
    /// From start until the last client finished its last request.
    var elapsed = Duration.zero
    /// CPU time the whole process used meanwhile (user + system; load, server and upstream together).
    var cpu = Duration.zero
    /// The first error seen, for the report.
    var firstError: String?

    /// 2xx answers per second.
    var perSecond: Double { Double(succeeded) / elapsed.seconds }
    /// Process CPU time per answered request, in microseconds.
    var cpuMicrosPerRequest: Double { cpu.seconds * 1e6 / Double(max(1, succeeded)) }
    /// Cores busy on average (process CPU time ÷ wall time).
    var coresBusy: Double { cpu.seconds / elapsed.seconds }

    mutating func merge(_ other: LoadResult) {
        succeeded += other.succeeded
        errors += other.errors
        buildTime += other.buildTime
        firstError = firstError ?? other.firstError
    }
}

/// Closed-loop load over AsyncHTTPClient: `connections` clients, each sending one request at a time until the
/// duration is over; every answer's body is read completely.
struct LoadGenerator: Sendable {
    let client: HTTPClient
    let settings: LoadSettings

    /// Builds the next request (may sign a DPoP proof).
    typealias MakeRequest = @Sendable () async throws -> HTTPClientRequest
    /// Sees every response head (may remember a `DPoP-Nonce`).
    typealias Observe = @Sendable (HTTPClientResponse) -> Void

    /// Warms up, then measures.
    func run(makeRequest: @escaping MakeRequest, observe: @escaping Observe) async throws -> LoadResult {
        if settings.warmup > .zero {
            _ = try await load(for: settings.warmup, makeRequest: makeRequest, observe: observe)
        }
        return try await load(for: settings.duration, makeRequest: makeRequest, observe: observe)
    }

    private func load(for duration: Duration, makeRequest: @escaping MakeRequest, observe: @escaping Observe)
        async throws -> LoadResult
    {
        let clock = ContinuousClock()
        let cpuStart = Self.processCPU()
        let start = clock.now
        let deadline = start + duration
        var total = try await withThrowingTaskGroup(of: LoadResult.self) { group in
            for _ in 0..<settings.connections {
                group.addTask {
                    try await worker(until: deadline, clock: clock, makeRequest: makeRequest, observe: observe)
                }
            }
            var total = LoadResult()
            for try await result in group { total.merge(result) }
            return total
        }
        total.elapsed = clock.now - start
        total.cpu = Self.processCPU() - cpuStart
        return total
    }

    /// User plus system CPU time of this process so far.
    static func processCPU() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let micros =
            (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return .microseconds(micros)
    }

    private func worker(
        until deadline: ContinuousClock.Instant, clock: ContinuousClock, makeRequest: MakeRequest, observe: Observe
    ) async throws -> LoadResult {
        var result = LoadResult()
        while clock.now < deadline {
            let buildStart = clock.now
            let request = try await makeRequest()
            result.buildTime += clock.now - buildStart
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                observe(response)
                let body = try await response.body.collect(upTo: 1 << 20)
                if (200..<300).contains(response.status.code) {
                    result.succeeded += 1
                } else {
                    result.errors += 1
                    if result.firstError == nil {
                        result.firstError = "HTTP \(response.status.code): \(String(buffer: body).prefix(200))"
                    }
                }
            } catch {
                result.errors += 1
                if result.firstError == nil { result.firstError = "\(error)" }
            }
        }
        return result
    }
}
