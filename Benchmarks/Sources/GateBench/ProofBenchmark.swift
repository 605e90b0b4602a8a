// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Crypto
import Foundation
import VettIDCrypto
import VettIDVerification

/// Rates of one operation, on one task and on all cores.
struct RatePair: Sendable {
    /// Operations per second on a single task.
    var single: Double
    /// Operations per second over one task per core.
    var allCores: Double
}

/// What ``ProofBenchmark`` measured.
struct ProofResults: Sendable {
    /// `DPoPProofBuilder.proof` with `ath` and a nonce, fresh `jti` each.
    var dpopCreate: RatePair
    /// `DPoPVerifier.verify` configured as the server's `DPoPGuard` (nonce required, `ath`, `cnf.jkt`, replay).
    var dpopVerify: RatePair
    /// Bare `ES256.sign` over a message as long as a proof's signing input: the peer of ``dpopCreate``.
    var es256Sign: RatePair
    /// Bare `ES256.isValid` of those signatures: the peer of ``dpopVerify``.
    var es256Verify: RatePair
    /// DPoP creation ÷ bare sign, the median of the rounds' ratios.
    var createRatio: RatePair
    /// DPoP verification ÷ bare verify, the median of the rounds' ratios.
    var verifyRatio: RatePair
}

/// The middle value (the mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// DPoP proofs created and verified per second against bare ES256 sign/verify, on one task and on all cores.
///
/// The four measurements run in `rounds` rounds; within a round, blocks of a bare operation alternate with blocks of
/// its DPoP counterpart (``blocksPerRound``), so a drift of the machine's speed (a noisy neighbour, frequency changes)
/// hits a DPoP rate and its bare peer alike; each ratio reported is the median of the rounds' ratios, each rate the
/// median of the rounds' rates.
///
/// The proofs look like the Gate proxy's: `GET` of an absolute URL, `ath` of a 512-byte access token, the
/// server's current nonce, a fresh 128-bit `jti`. The verifier mirrors `DPoPGuard` (nonce required and checked by a
/// ``DPoPNonceIssuer``, `ath`, `cnf.jkt`, replay cache), except that the replay cache is the in-memory one
/// rather than the server's SQL table, so this measures the DPoP layer without database time.
struct ProofBenchmark: Sendable {
    let count: Int
    let cores: Int
    let rounds: Int

    static let targetURI = "http://127.0.0.1:8080/proxy/bench/echo"
    static let accessToken = String(repeating: "t", count: 512)

    func run() async throws -> ProofResults {
        let signer = SoftwareDPoPSigner()
        let builder = DPoPProofBuilder(signer: signer)
        let nonces = DPoPNonceIssuer(key: SymmetricKey(size: .bits256))
        let nonce = nonces.issue()
        let sample = try await builder.proof(
            method: "GET", url: Self.targetURI, accessToken: Self.accessToken, nonce: nonce)
        let signingInput = Array(sample[..<(sample.lastIndex(of: ".") ?? sample.endIndex)].utf8)
        let ecdsaKey = P256.Signing.PrivateKey()
        // Derived once, as the verifier's key cache holds a parsed key: the peer is the signature check alone.
        let ecdsaPublicKey = ecdsaKey.publicKey

        let zero = RatePair(single: 0, allCores: 0)
        var results = ProofResults(
            dpopCreate: zero, dpopVerify: zero, es256Sign: zero, es256Verify: zero, createRatio: zero,
            verifyRatio: zero)
        let perRound = max(100, count / rounds)
        for tasks in cores > 1 ? [1, cores] : [1] {
            var measured: [RoundRates] = []
            for _ in 0..<rounds {
                measured.append(
                    try await measureRound(
                        count: perRound, tasks: tasks, builder: builder, signer: signer, nonces: nonces, nonce: nonce,
                        signingInput: signingInput, ecdsaKey: ecdsaKey, ecdsaPublicKey: ecdsaPublicKey))
            }
            let medians = RoundRates(
                sign: median(measured.map(\.sign)), verify: median(measured.map(\.verify)),
                create: median(measured.map(\.create)), check: median(measured.map(\.check)))
            let createRatio = median(measured.map { $0.create / $0.sign })
            let verifyRatio = median(measured.map { $0.check / $0.verify })
            if tasks == 1 {
                (results.es256Sign.single, results.es256Verify.single) = (medians.sign, medians.verify)
                (results.dpopCreate.single, results.dpopVerify.single) = (medians.create, medians.check)
                (results.createRatio.single, results.verifyRatio.single) = (createRatio, verifyRatio)
            }
            if tasks == cores || cores <= 1 {
                (results.es256Sign.allCores, results.es256Verify.allCores) = (medians.sign, medians.verify)
                (results.dpopCreate.allCores, results.dpopVerify.allCores) = (medians.create, medians.check)
                (results.createRatio.allCores, results.verifyRatio.allCores) = (createRatio, verifyRatio)
            }
        }
        return results
    }

    /// Operations per second of one round's four measurements.
    struct RoundRates {
        /// Bare ES256 sign.
        var sign: Double
        /// Bare ES256 verify.
        var verify: Double
        /// DPoP proof created.
        var create: Double
        /// DPoP proof verified.
        var check: Double
    }

    /// Blocks per round: a round alternates a block of bare operations with a block of DPoP operations, so a change
    /// of the machine's speed within the round (this VM's rates move by a tenth from one second to the next) weighs
    /// on a DPoP rate and its bare peer alike.
    static let blocksPerRound = 16

    /// Wall-clock time of one kind of operation, summed over a round's blocks.
    private struct Elapsed {
        var sign = Duration.zero
        var create = Duration.zero
        var verify = Duration.zero
        var check = Duration.zero
    }

    /// One round of `count` operations of each kind: blocks of bare signs alternating with blocks of DPoP proofs
    /// created, then blocks of bare verifications alternating with blocks of DPoP proofs verified.
    private func measureRound(
        count: Int, tasks: Int, builder: DPoPProofBuilder, signer: SoftwareDPoPSigner, nonces: DPoPNonceIssuer,
        nonce: String, signingInput: [UInt8], ecdsaKey: P256.Signing.PrivateKey,
        ecdsaPublicKey: P256.Signing.PublicKey
    ) async throws -> RoundRates {
        let blocks = Throughput.slices(count: count, parts: Self.blocksPerRound)
        var elapsed = Elapsed()
        var signatures: [[UInt8]] = []
        var proofs: [String] = []
        signatures.reserveCapacity(count)
        proofs.reserveCapacity(count)
        for block in blocks {
            let sign = try await Throughput.measure(count: block.count, tasks: tasks) { range in
                try range.map { _ in try ES256.sign(signingInput, with: ecdsaKey) }
            }
            let create = try await Throughput.measure(count: block.count, tasks: tasks) { range in
                var made: [String] = []
                made.reserveCapacity(range.count)
                for _ in range {
                    made.append(
                        try await builder.proof(
                            method: "GET", url: Self.targetURI, accessToken: Self.accessToken, nonce: nonce))
                }
                return made
            }
            elapsed.sign += sign.elapsed
            elapsed.create += create.elapsed
            signatures += sign.outputs
            proofs += create.outputs
        }
        // A fresh cache per round: the same proofs are never verified twice by one verifier.
        let verifier = DPoPVerifier(
            configuration: .init(requireNonce: true),
            replayCache: InMemoryDPoPReplayCache(capacity: max(100_000, count)),
            nonceValidator: nonces
        )
        let thumbprint = signer.publicJWK.thumbprint
        for block in blocks {
            let blockSignatures = Array(signatures[block])
            let blockProofs = Array(proofs[block])
            let verify = try await Throughput.measure(count: block.count, tasks: tasks) { range in
                try range.map { index in
                    guard
                        ES256.isValid(
                            signature: blockSignatures[index], for: signingInput, publicKey: ecdsaPublicKey)
                    else { throw BenchFailure("an ES256 signature did not verify") }
                }
            }
            let check = try await Throughput.measure(count: block.count, tasks: tasks) { range in
                for index in range {
                    let request = DPoPRequest(
                        proof: blockProofs[index], method: "GET", targetURI: Self.targetURI,
                        accessToken: Self.accessToken, boundKeyThumbprint: thumbprint)
                    do {
                        _ = try await verifier.verify(request)
                    } catch {
                        throw BenchFailure("proof \(block.lowerBound + index) was refused: \(error)")
                    }
                }
                return [Void]()
            }
            elapsed.verify += verify.elapsed
            elapsed.check += check.elapsed
        }
        let rate = { (duration: Duration) in Double(count) / duration.seconds }
        return RoundRates(
            sign: rate(elapsed.sign), verify: rate(elapsed.verify), create: rate(elapsed.create),
            check: rate(elapsed.check))
    }
}
