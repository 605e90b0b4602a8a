// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import Testing
import VettIDTestSupport

@testable import VettIDServer

@Suite struct Argon2Tests {
    /// RFC 9106 §5.3 Argon2id known-answer test, through the full context API (secret + associated data).
    @Test func rfc9106KnownAnswer() throws {
        let vector = try TestFixtures.jsonObject("argon2/rfc9106-argon2id.json")
        func bytes(_ key: String) throws -> [UInt8] {
            let hex = try #require(vector[key] as? String)
            return stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
        }
        let parameters = Argon2Parameters(
            iterations: UInt32(try #require(vector["iterations"] as? Int)),
            memoryKiB: UInt32(try #require(vector["memory_kib"] as? Int)),
            parallelism: UInt32(try #require(vector["parallelism"] as? Int)),
            hashLength: try #require(vector["tag_length"] as? Int)
        )
        let tag = try Argon2.rawHash(
            password: try bytes("password_hex"), salt: try bytes("salt_hex"), secret: try bytes("secret_hex"),
            associatedData: try bytes("associated_data_hex"), parameters: parameters
        )
        #expect(tag == (try bytes("expected_tag_hex")))
    }

    @Test func encodedHashVerifiesOnlyTheRightPassword() async throws {
        let hasher = PasswordHasher(configuration: .init(parameters: .testing, maxConcurrentHashes: 2))
        let phc = try await hasher.hash("correct horse battery staple")
        #expect(phc.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(try await hasher.verify("correct horse battery staple", against: phc).matches)
        #expect(try await hasher.verify("correct horse battery stapl3", against: phc).matches == false)
        #expect(try await hasher.verify("anything", against: "not a phc string").matches == false)
    }

    @Test func saltsAreFresh() async throws {
        let hasher = PasswordHasher(configuration: .init(parameters: .testing))
        let first = try await hasher.hash("same password here")
        let second = try await hasher.hash("same password here")
        #expect(first != second)
    }

    @Test func rehashIsNeededWhenParametersChange() async throws {
        let old = PasswordHasher(configuration: .init(parameters: .testing))
        let phc = try await old.hash("a long enough password")
        let current = PasswordHasher(
            configuration: .init(parameters: Argon2Parameters(iterations: 2, memoryKiB: 2048, parallelism: 1)))
        let verdict = try await current.verify("a long enough password", against: phc)
        #expect(verdict.matches && verdict.needsRehash)
        #expect(try await old.verify("a long enough password", against: phc).needsRehash == false)
    }

    @Test(arguments: [
        (
            "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            PHCString?.some(.init("$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")!)
        ),
        ("$argon2i$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", nil),
        ("$argon2id$v=19$m=65536,t=3$c2FsdA$aGFzaA", nil),
        ("garbage", nil),
    ])
    func parsesPHCStrings(text: String, expected: PHCString?) {
        #expect(PHCString(text) == expected)
        if let parsed = PHCString(text) {
            #expect(parsed.matches(.rfc9106LowMemory))
            #expect(parsed.matches(.owaspMinimum) == false)
        }
    }

    /// The limiter never lets more than `limit` bodies overlap, so Argon2 memory stays bounded.
    @Test func concurrencyIsBounded() async throws {
        let limiter = ConcurrencyLimiter(limit: 3)
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    await limiter.run {
                        gauge.enter()
                        try? await Task.sleep(for: .milliseconds(2))
                        gauge.leave()
                    }
                }
            }
        }
        #expect(gauge.peak == 3)
        #expect(gauge.current == 0)
    }
}

final class Gauge: Sendable {
    private let counts = NIOLockedValueBox((current: 0, peak: 0))

    var current: Int { counts.withLockedValue { $0.current } }
    var peak: Int { counts.withLockedValue { $0.peak } }

    func enter() {
        counts.withLockedValue {
            $0.current += 1
            $0.peak = max($0.peak, $0.current)
        }
    }
    func leave() { counts.withLockedValue { $0.current -= 1 } }
}
