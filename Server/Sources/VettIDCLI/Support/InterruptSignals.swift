// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT (Ctrl-C) and SIGTERM into a call, instead of the default immediate exit, for commands that stream
/// until interrupted (`vettid nats listen`): they stop reading, disconnect and exit 0 with all output written.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private static let signals = [SIGINT, SIGTERM]

    /// Starts handling; `handler` runs on a global queue for each signal that arrives.
    init(_ handler: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops handling; the signals kill the process again.
    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
