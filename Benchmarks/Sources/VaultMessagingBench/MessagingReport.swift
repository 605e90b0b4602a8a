// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation

/// What VaultMessagingBench prints, phase by phase.
enum MessagingReport {
    static func handshake(_ result: HandshakeBenchmark.Result, handshakes: Int, requests: Int, rounds: Int) {
        emit(
            "handshake per session, in process (no NATS, no device lookup), \(handshakes / rounds * rounds) per path "
                + "in \(rounds) alternating rounds (µs: median of the rounds' means; ratios: median of the rounds' "
                + "ratios):")
        emit("  path                                                        µs   vs floor   vs both sides")
        let floor = result.floor
        let both = result.bothSidesFloor
        emit(row("floor: ES256 sign + verify + 1 X25519 agreement", floor, []))
        emit(row("both sides: 2 × (X25519 key, agreement, sign, verify)", both, [floor]))
        emit(row("handshake, X25519 suite (offered: X25519)", result.x25519, [floor, both]))
        emit(row("handshake, X-Wing suite (offered: X-Wing, X25519; default)", result.xWing, [floor, both]))
        emit(row("X-Wing KEM alone: key pair, encapsulate, decapsulate", result.xWingKEM, []))
        emit(String(format: "  X-Wing handshake / X25519 handshake: %.2f×", medianRatio(result.xWing, result.x25519)))
        emit(
            "per request in process, \(min(max(requests / rounds, 1), 1000)) per round (µs, median of the rounds' "
                + "means):")
        emit(
            String(format: "  %6.1f", median(result.sealOpen))
                + "  sealed echo: the app seals, the vault's table opens, the answer sealed, the app opens")
        emit(
            String(format: "  %6.1f", median(result.aead))
                + "  its floor: ChaCha20-Poly1305 seal + open of a 512-byte bucket with a 28-byte header, both ways")
        emit(
            String(format: "  %6.1f", median(result.plaintextJSON))
                + "  the plaintext path's JSON: execute and handler_result encoded and decoded")
        emit("")
    }

    static func mailbox(_ result: MailboxBenchmark.Result, messages: Int) {
        emit(
            "mailbox: \(messages) notices wait for a device that is away, \(result.fill.count) rounds (ms: median of the "
                + "rounds; ratios: median of the rounds' ratios):")
        func line(_ samples: [Double], _ what: String) {
            emit(
                String(format: "  %8.1f ms  %7.0f/s  ", median(samples) * 1000, Double(messages) / median(samples))
                    + what)
        }
        line(result.fill, "relay: sealed and stored (a PubAck each) from the first notice posted")
        line(result.bare, "peer: a bare JetStream consumer pulls and acks them (64 per pull)")
        line(result.catchUp, "the SDK: connect, catch up, open, hand each to the app, ack")
        line(result.bareOpening, "floor: the bare consumer also opens each (HPKE)")
        emit(
            String(
                format: "  SDK catch-up / bare consumer opening each: %.2f×",
                medianRatio(result.catchUp, result.bareOpening)))
        emit(String(format: "  SDK catch-up / bare consumer: %.2f×", medianRatio(result.catchUp, result.bare)))
        emit("")
    }

    static func roundTrip(_ result: RoundTripBenchmark.Result, rounds: Int) {
        emit(
            "round trip, 1 app, 1 request in flight, \(result.raw.count) requests per path in \(rounds) alternating "
                + "rounds (µs):")
        emit("  path                                p50       p99")
        for (name, sample) in [
            ("raw NATS request/reply echo", result.raw), ("raw echo, shaped subjects", result.shaped),
            ("app → worker (execute echo)", result.worker), ("app → worker, sealed (bare)", result.workerSealed),
            ("SDK executeHandler, plaintext", result.sdkPlaintext), ("SDK executeHandler, sealed", result.sdkSealed),
        ] {
            emit(
                "  " + name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(
                        format: "%9.0f %9.0f", sample.percentile(0.5).microseconds, sample.percentile(0.99).microseconds
                    ))
        }
        emit(ratios("worker / raw", result.worker, result.raw))
        emit(ratios("worker / shaped", result.worker, result.shaped))
        emit(ratios("sealed / plaintext, SDK", result.sdkSealed, result.sdkPlaintext))
        emit(ratios("sealed / plaintext, bare", result.workerSealed, result.worker))
        emit(ratios("SDK plaintext / bare plaintext", result.sdkPlaintext, result.worker))
        emit(
            "  handshakes during the measured rounds: SDK \(result.renewals.sdk), bare \(result.renewals.bare) "
                + "(a session admits 1,000 requests)")
        emit(
            "handshake over NATS (bare app: signed init → the vault's checks, device lookup and response → opened), "
                + "\(result.handshakes.count) one after the other: "
                + String(
                    format: "p50 %.0f µs, p99 %.0f µs", result.handshakes.percentile(0.5).microseconds,
                    result.handshakes.percentile(0.99).microseconds))
        emit("")
    }

    static func throughputHeader(clients: Int, window: Int, seconds: Double) {
        emit(
            "throughput, \(clients) apps × \(window) requests in flight, \(seconds) s per path in two alternating halves "
                + "(peer: the same load against raw echo responders in a queue group on the same nats-server; "
                + "'shaped': on subjects of the app's lengths and a wildcard subscription, as the worker's path; "
                + "'on loop': the shaped responders on their connections' event loops, where the worker's lanes run; "
                + "'SDK': executeHandler of the SDK's OwnerSpaceClient, plaintext or through its VaultSessionChannel, "
                + "one enrolled device and connection per app):")
        emit("  responders                 answered   requests/s   vs raw   vs shaped   vs on loop")
    }

    static func throughput(_ phase: ThroughputPhase, workers count: Int) {
        emit(String(format: "  %2d raw echo             %10d %12.0f", count, phase.raw.answered, phase.raw.perSecond))
        emit(
            String(
                format: "  %2d raw echo, shaped     %10d %12.0f %8.2f×", count, phase.shaped.answered,
                phase.shaped.perSecond, phase.shaped.perSecond / phase.raw.perSecond))
        emit(
            String(
                format: "  %2d raw echo, on loop    %10d %12.0f %8.2f× %8.2f×", count, phase.onLoop.answered,
                phase.onLoop.perSecond, phase.onLoop.perSecond / phase.raw.perSecond,
                phase.onLoop.perSecond / phase.shaped.perSecond))
        emit(
            String(
                format: "  %2d raw echo, sealed floor %8d %12.0f %8.2f× %8.2f× %10.2f×", count, phase.floor.answered,
                phase.floor.perSecond, phase.floor.perSecond / phase.raw.perSecond,
                phase.floor.perSecond / phase.shaped.perSecond, phase.floor.perSecond / phase.onLoop.perSecond))
        for (name, result) in [
            ("vault worker        ", phase.worker), ("SDK, plaintext      ", phase.sdkPlaintext),
            ("SDK, sealed         ", phase.sdkSealed),
        ] {
            emit(
                String(format: "  %2d ", count) + name
                    + String(
                        format: " %10d %12.0f %8.2f× %8.2f× %10.2f×", result.answered, result.perSecond,
                        result.perSecond / phase.raw.perSecond, result.perSecond / phase.shaped.perSecond,
                        result.perSecond / phase.onLoop.perSecond))
        }
        emit(
            String(
                format: "  %2d sealed / plaintext, SDK: %.2f× (handshakes while measured: %d; requests refused "
                    + "out_of_order after the SDK's retry: %d)", count,
                phase.sdkSealed.perSecond / phase.sdkPlaintext.perSecond, phase.handshakes, phase.sdkSealed.refused))
        emit(
            String(
                format: "  %2d the floor of sealed / plaintext, SDK: %.2f× (the SDK's plaintext path plus what the "
                    + "sealed floor adds to the echo on loop, per request)", count, phase.floorRatio))
    }

    /// `name: p50 x×, p99 y×` of `sample` against `peer`.
    private static func ratios(_ name: String, _ sample: LatencySample, _ peer: LatencySample) -> String {
        "  \(name): "
            + String(
                format: "p50 %.2f×, p99 %.2f×", sample.percentile(0.5).microseconds / peer.percentile(0.5).microseconds,
                sample.percentile(0.99).microseconds / peer.percentile(0.99).microseconds)
    }

    /// A row of the handshake table: the median of `values`, then its ratio to each of `peers`.
    private static func row(_ name: String, _ values: [Double], _ peers: [[Double]]) -> String {
        "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0) + String(format: "%6.0f", median(values))
            + peers.map { String(format: "   %7.2f×", medianRatio(values, $0)) }.joined()
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The median of the rounds' ratios `values[i] / peer[i]`.
    static func medianRatio(_ values: [Double], _ peer: [Double]) -> Double {
        median(zip(values, peer).map { $0 / $1 })
    }
}

/// One throughput phase (one worker count): every path's two halves added up.
struct ThroughputPhase {
    var raw = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    var shaped = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    var onLoop = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    /// The echo on loop with the request and answer padded, sealed and opened (``SealedFloor``).
    var floor = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    var worker = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    var sdkPlaintext = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    var sdkSealed = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
    /// Handshakes the sealed SDK apps ran while measured (a session admits 1,000 requests).
    var handshakes = 0

    /// The best sealed / plaintext ratio of the SDK paths any sealed design can reach here: the machine's time per
    /// plaintext request (1 / its rate, the machine saturated) against that time plus what sealing adds to the
    /// echo on loop per request (1 / the floor's rate − 1 / the echo's).
    var floorRatio: Double {
        let plaintext = 1 / sdkPlaintext.perSecond
        return plaintext / (plaintext + 1 / floor.perSecond - 1 / onLoop.perSecond)
    }
}
