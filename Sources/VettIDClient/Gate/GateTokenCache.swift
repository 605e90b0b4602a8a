// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// Holds the Gate access token and mints a new one, single flight, when it is missing or expires within the
/// refresh margin (60 s by default).
///
/// However many requests need a token at the same time, one mint runs and every caller awaits it. A failed mint
/// is reported to every waiter and the next call tries again.
actor GateTokenCache {
    typealias Mint = @Sendable () async throws(GateError) -> GateAccessToken

    private let mint: Mint
    private let refreshMargin: TimeInterval
    private let clock: any WallClock
    private var token: GateAccessToken?
    private var inFlight: Task<GateAccessToken, any Error>?
    /// How many mints have started (diagnostics and tests).
    private(set) var mintCount = 0

    init(refreshMargin: TimeInterval, clock: any WallClock, mint: @escaping Mint) {
        self.refreshMargin = refreshMargin
        self.clock = clock
        self.mint = mint
    }

    /// A token valid for at least the refresh margin, minting one when needed.
    func validToken() async throws(GateError) -> GateAccessToken {
        if let token, !token.needsRefresh(at: clock.now(), margin: refreshMargin) { return token }
        if let inFlight { return try await Self.value(of: inFlight) }
        mintCount += 1
        let mint = self.mint
        let task = Task<GateAccessToken, any Error> { try await mint() }
        inFlight = task
        defer { inFlight = nil }
        let minted = try await Self.value(of: task)
        token = minted
        return minted
    }

    /// Drops the cached token if it is still `value` (a token the server refused), so the next call mints.
    func invalidate(ifCurrent value: String? = nil) {
        guard let token else { return }
        if value == nil || token.value == value { self.token = nil }
    }

    private static func value(of task: Task<GateAccessToken, any Error>) async throws(GateError) -> GateAccessToken {
        do {
            return try await task.value
        } catch let error as GateError {
            throw error
        } catch {
            throw GateError(code: .network, message: "Minting the access token was interrupted.", underlying: error)
        }
    }
}
