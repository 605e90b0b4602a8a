import Foundation

/// Prints what GateBench measured: rates, and ratios of rates measured in the same run.
enum BenchReport {
    static func printProofs(_ results: ProofResults, count: Int, cores: Int) {
        print("DPoP proofs: \(count) per measurement; 1 task, then \(cores) tasks (all cores)")
        print(row("", "1 task/s", "all cores/s", "scaling"))
        for (name, pair) in [
            ("ES256 sign (bare, peer)", results.es256Sign), ("DPoP proof created", results.dpopCreate),
            ("ES256 verify (bare, peer)", results.es256Verify), ("DPoP proof verified", results.dpopVerify),
        ] {
            print(row(name, rate(pair.single), rate(pair.allCores), ratio(pair.allCores / pair.single)))
        }
        print(
            "ratio DPoP created : ES256 sign     1 task \(ratio(results.dpopCreate.single / results.es256Sign.single)), "
                + "all cores \(ratio(results.dpopCreate.allCores / results.es256Sign.allCores))")
        print(
            "ratio DPoP verified : ES256 verify  1 task \(ratio(results.dpopVerify.single / results.es256Verify.single)), "
                + "all cores \(ratio(results.dpopVerify.allCores / results.es256Verify.allCores))")
        print(
            "(proofs: GET, ath of a 512-byte token, server nonce, fresh jti; verifier as DPoPGuard with an in-memory replay cache)"
        )
    }

    static func printProxy(_ results: ProxyResults, settings: LoadSettings, proofs: ProofResults, cores: Int) {
        let seconds = settings.duration.seconds
        print(
            "Gate proxy: \(settings.connections) connections, \(format(seconds)) s per run after \(format(settings.warmup.seconds)) s warm-up, "
                + "AsyncHTTPClient, upstream + server + load in one process")
        print(row("", "req/s", "requests", "errors"))
        print(
            row(
                "GET upstream directly", rate(results.direct.perSecond), "\(results.direct.succeeded)",
                "\(results.direct.errors)"))
        print(
            row(
                "GET via /proxy (DPoP)", rate(results.proxied.perSecond), "\(results.proxied.succeeded)",
                "\(results.proxied.errors)"))
        print("ratio proxied : direct             \(ratio(results.proxied.perSecond / results.direct.perSecond))")
        let requests = max(1, results.proxied.succeeded + results.proxied.errors)
        let buildMicros = results.proxied.buildTime.seconds / Double(requests) * 1e6
        // Core-seconds per second that proof creation needs at the proxied rate, from the single-task create rate.
        let createShare = results.proxied.perSecond / proofs.dpopCreate.single / Double(cores)
        let verifyShare = results.proxied.perSecond / proofs.dpopVerify.single / Double(cores)
        print(
            "building a request in the load loop: \(format(buildMicros)) µs (wall, incl. waiting for a core; signing "
                + "the proof when --sign-in-loop)")
        print(
            "at the proxied rate, proof creation needs ≈ \(percent(createShare)) and DPoP verification (without SQL) ≈ "
                + "\(percent(verifyShare)) of the \(cores) cores (proxied req/s ÷ 1-task proofs/s ÷ cores)")
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
