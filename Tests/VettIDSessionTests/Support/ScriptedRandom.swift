// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCrypto
import VettIDSession

/// Random bytes the test chose: each call takes the next scripted chunk, which must have the asked length; once the
/// script is used up, a SHA-256 counter stream from `seed` (deterministic, distinct per call).
final class ScriptedRandom: SessionRandom {
    private struct State {
        var chunks: [[UInt8]]
        var counter: UInt64 = 0
    }

    private let state: LockedValue<State>
    private let seed: String

    init(_ chunks: [[UInt8]] = [], seed: String = "VettID session tests") {
        self.state = LockedValue(State(chunks: chunks))
        self.seed = seed
    }

    func bytes(_ count: Int) -> [UInt8] {
        state.withLock { state in
            if !state.chunks.isEmpty {
                let chunk = state.chunks.removeFirst()
                precondition(chunk.count == count, "scripted chunk of \(chunk.count) bytes, \(count) asked")
                return chunk
            }
            var output: [UInt8] = []
            while output.count < count {
                state.counter += 1
                output += SHA256.hash(data: Array("\(seed) \(state.counter)".utf8))
            }
            return Array(output.prefix(count))
        }
    }

    /// Whether every scripted chunk was taken.
    var isUsedUp: Bool { state.withLock { $0.chunks.isEmpty } }
}

/// `count` bytes counting up from `start` (`00 01 02 …`), the example's readable nonces.
func countingBytes(from start: UInt8, count: Int) -> [UInt8] {
    (0..<count).map { start &+ UInt8($0) }
}
