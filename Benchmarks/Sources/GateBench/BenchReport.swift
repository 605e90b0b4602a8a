// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation

/// Prints what GateBench measured: rates, and ratios of rates measured in the same run.
enum BenchReport {
    static func printProofs(_ results: ProofResults, count: Int, cores: Int, rounds: Int) {
        print(
            "DPoP proofs: \(count) per measurement in \(rounds) rounds; 1 task, then \(cores) tasks (all cores); "
                + "rates and ratios are medians of the rounds")
        print(row("", "1 task/s", "all cores/s", "scaling"))
        for (name, pair) in [
            ("ES256 sign (bare, peer)", results.es256Sign), ("DPoP proof created", results.dpopCreate),
            ("ES256 verify (bare, peer)", results.es256Verify), ("DPoP proof verified", results.dpopVerify),
        ] {
            print(row(name, rate(pair.single), rate(pair.allCores), ratio(pair.allCores / pair.single)))
        }
        print(
            "ratio DPoP created : ES256 sign     1 task \(ratio(results.createRatio.single)), "
                + "all cores \(ratio(results.createRatio.allCores))")
        print(
            "ratio DPoP verified : ES256 verify  1 task \(ratio(results.verifyRatio.single)), "
                + "all cores \(ratio(results.verifyRatio.allCores))")
        print(
            "(proofs: GET, ath of a 512-byte token, server nonce, fresh jti; verifier as DPoPGuard with an in-memory replay cache)"
        )
    }

    static func printProxy(_ results: ProxyResults, settings: LoadSettings, proofs: ProofResults, cores: Int) {
        let seconds = settings.duration.seconds
        print(
            "Gate proxy: \(settings.connections) connections, \(results.rounds.count) rounds of a direct then a proxied "
                + "run, \(format(seconds)) s each after \(format(settings.warmup.seconds)) s warm-up; load over "
                + "AsyncHTTPClient, upstream + server + load in one process")
        print(row("", "req/s", "requests", "errors") + pad("cores busy", 12) + pad("CPU µs/req", 12))
        for (index, round) in results.rounds.enumerated() {
            for (name, run) in [("direct", round.direct), ("via /proxy (DPoP)", round.proxied)] {
                print(
                    row("round \(index + 1) \(name)", rate(run.perSecond), "\(run.succeeded)", "\(run.errors)")
                        + pad(format(run.coresBusy), 12) + pad(rate(run.cpuMicrosPerRequest), 12))
            }
            print("round \(index + 1) ratio proxied : direct  \(ratio(round.ratio))")
        }
        print("ratio proxied : direct (median of rounds)   \(ratio(results.medianRatio))")
        let proxied = results.rounds.map(\.proxied)
        let requests = max(1, proxied.map { $0.succeeded + $0.errors }.reduce(0, +))
        let buildMicros = proxied.map(\.buildTime.seconds).reduce(0, +) / Double(requests) * 1e6
        let proxiedRate = proxied.map(\.perSecond).reduce(0, +) / Double(max(1, proxied.count))
        // Core-seconds per second that proof creation needs at the proxied rate, from the single-task create rate.
        let createShare = proxiedRate / proofs.dpopCreate.single / Double(cores)
        let verifyShare = proxiedRate / proofs.dpopVerify.single / Double(cores)
        print(
            "building a request in the load loop: \(format(buildMicros)) µs (wall, incl. waiting for a core; signing "
                + "the proof when --sign-in-loop)")
        print(
            "at the proxied rate, proof creation needs ≈ \(percent(createShare)) and DPoP verification (without SQL) ≈ "
                + "\(percent(verifyShare)) of the \(cores) cores (proxied req/s ÷ 1-task proofs/s ÷ cores)")
        print(
            "one ES256 verification costs \(rate(1e6 / proofs.es256Verify.single)) µs of CPU (bare, 1 task): the work a "
                + "proxied request cannot avoid beyond a direct one's")
    }

    private static func row(_ name: String, _ a: String, _ b: String, _ c: String) -> String {
        name.padding(toLength: 28, withPad: " ", startingAt: 0) + pad(a, 12) + pad(b, 13) + pad(c, 9)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func rate(_ value: Double) -> String { String(format: "%.0f", value) }
    private static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func percent(_ value: Double) -> String { String(format: "%.0f%%", value * 100) }
}
