// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The answer of one passkey ceremony, delivered to its async caller exactly once.
///
/// `PlatformPasskeyAuthenticator`'s `ASAuthorizationController` delegate calls ``finish(_:)`` from its callbacks
/// (success or error); the caller awaits ``wait(start:)``. The continuation is resumed by the first ``finish(_:)``
/// only: a second callback, or one arriving before the caller waits, can neither resume it twice (a crash) nor
/// leave it unresumed (a hang). Main-actor isolated, as the delegate and presentation protocols are.
@MainActor
final class PasskeyCeremonyCompletion<Success: Sendable> {
    private var continuation: CheckedContinuation<Result<Success, PasskeyError>, Never>?
    /// The answer, once delivered (also when it came before ``wait(start:)``).
    private(set) var result: Result<Success, PasskeyError>?

    init() {}

    /// Whether the ceremony has its answer.
    var isFinished: Bool { result != nil }

    /// Runs `start` (which begins the ceremony) and waits for the first ``finish(_:)``.
    ///
    /// If the answer is already there, `start` is not run. Call it once per instance; a second call returns the
    /// same answer without running `start`.
    /// - Parameter start: Begins the ceremony (`performRequests()`); it may call ``finish(_:)`` itself.
    func wait(start: () -> Void) async throws(PasskeyError) -> Success {
        if let result { return try result.get() }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Success, PasskeyError>, Never>) in
            self.continuation = continuation
            start()
        }
        return try result.get()
    }

    /// Delivers the answer; later calls are ignored.
    /// - Parameter result: The credential, or why there is none.
    /// - Returns: Whether this call delivered the answer (`false`: an earlier one did).
    @discardableResult
    func finish(_ result: Result<Success, PasskeyError>) -> Bool {
        guard self.result == nil else { return false }
        self.result = result
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: result)
        }
        return true
    }
}
