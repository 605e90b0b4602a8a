// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shared plumbing of the libFuzzer targets: handing control to libFuzzer, failing on a violated invariant,
// and running an async verifier from libFuzzer's synchronous callback.

import CFuzzerDriver
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The body a target registered with ``runFuzzer(_:_:_:)``; libFuzzer calls it through a C function pointer,
/// which cannot capture, so it lives in a global.
nonisolated(unsafe) private var registeredBody: ((UnsafeRawBufferPointer) -> Void)?

/// Runs libFuzzer's driver with `body` as the per-input callback. Call it from the target's
/// `<Module>_main` (SwiftPM links Linux executables with `main` renamed to that).
public func runFuzzer(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: @escaping (UnsafeRawBufferPointer) -> Void
) -> CInt {
    registeredBody = body
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        runRegisteredBody(data, size)
        return 0
    }
}

/// Feeds one input to the registered body (also the target of `LLVMFuzzerTestOneInput`).
public func runRegisteredBody(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    guard let body = registeredBody else { fatalError("no fuzz body registered") }
    if let data {
        body(UnsafeRawBufferPointer(start: data, count: size))
    } else {
        body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
}

/// Stops the process with a message libFuzzer reports as a crash, with the input that caused it.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz invariant violated: \(message())", file: file, line: line)
    }
}

/// When set, the target writes fresh seeds to the directory it names instead of fuzzing (used once to
/// produce the committed valid seeds; see Fuzz/corpus/README.md).
public var seedOutputDirectory: String? {
    guard let value = getenv("VETTID_FUZZ_WRITE_SEEDS") else { return nil }
    return String(cString: value)
}

/// Writes `bytes` to `directory/name`.
public func writeSeed(_ bytes: [UInt8], named name: String, in directory: String) {
    let path = directory + "/" + name
    guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// How many ``runBlocking(_:)`` calls could not finish on the calling thread and had to wait for another.
nonisolated(unsafe) public var blockingFallbacks = 0

/// Runs `operation` to completion and returns its result.
///
/// The task starts immediately on the calling thread (SE-0472), so an operation that never really suspends
/// (the verifiers here, with replay caches and validators that complete synchronously) finishes before
/// `Task.immediate` returns and costs no thread hop; anything that does suspend is waited for.
public func runBlocking<T: Sendable>(_ operation: sending @escaping () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.immediate {
        box.value = await operation()
        done.signal()
    }
    if done.wait(timeout: .now()) == .timedOut {
        blockingFallbacks += 1
        done.wait()
    }
    return box.value!
}

/// Whether VETTID_FUZZ_TRACE is set: targets then print each verdict (to check seeds by hand:
/// `VETTID_FUZZ_TRACE=1 .build-fuzz/debug/<Product> -runs=0 Fuzz/corpus/<target>`).
public let tracing = getenv("VETTID_FUZZ_TRACE") != nil

/// Prints `message` to standard error when ``tracing``.
public func trace(_ message: @autoclosure () -> String) {
    guard tracing else { return }
    let line = Array("trace: \(message())\n".utf8)
    _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}
