// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore
import VettIDMessaging

@testable import VettIDViewModels

/// 2026-11-25 13:05:00 UTC in milliseconds (``novemberAfternoon``), as the vault stamps `updated_at`.
let novemberAfternoonMilliseconds: Int64 = 1_795_611_900_000

/// A summary for tests.
func sampleSecret(_ name: String, version: Int64 = 1, size: Int = 4, updatedAt: Int64 = novemberAfternoonMilliseconds)
    -> SecretSummary
{
    SecretSummary(name: name, version: version, size: size, updatedAt: updatedAt)
}

/// A list for tests (the vault's standard limits; total bytes the sum of the sizes).
func sampleList(_ secrets: [SecretSummary]) -> SecretList {
    SecretList(secrets: secrets, totalBytes: secrets.reduce(0) { $0 + $1.size }, limits: .standard)
}

/// A value for tests.
func sampleValue(_ name: String, _ text: String, version: Int64 = 1) -> SecretValue {
    SecretValue(name: name, value: Data(text.utf8), version: version, updatedAt: novemberAfternoonMilliseconds)
}

/// The vault's refusal `code`.
func vaultError(_ code: VaultMessageError.Code, _ message: String = "refused") -> VaultMessageError {
    VaultMessageError(code, message)
}

/// A `SecretsSource` that answers from scripts and records every call (what was asked, never the values' bytes).
actor FakeSecretsSource: SecretsSource {
    var lists: [Result<SecretList, VaultMessageError>] = []
    var gets: [Result<SecretValue, VaultMessageError>] = []
    var puts: [Result<SecretSummary, VaultMessageError>] = []
    var deletes: [Result<SecretSummary, VaultMessageError>] = []
    /// "list", "get bank-pin", "put bank-pin expected 0 <value>", "delete bank-pin expected 2".
    private(set) var calls: [String] = []

    func script(
        lists: [Result<SecretList, VaultMessageError>] = [], gets: [Result<SecretValue, VaultMessageError>] = [],
        puts: [Result<SecretSummary, VaultMessageError>] = [], deletes: [Result<SecretSummary, VaultMessageError>] = []
    ) {
        self.lists += lists
        self.gets += gets
        self.puts += puts
        self.deletes += deletes
    }

    func list() async throws(VaultMessageError) -> SecretList {
        calls.append("list")
        return try next(&lists)
    }

    func get(name: String) async throws(VaultMessageError) -> SecretValue {
        calls.append("get \(name)")
        return try next(&gets)
    }

    func put(name: String, value: Data, expectedVersion: Int64?) async throws(VaultMessageError) -> SecretSummary {
        calls.append(
            "put \(name) expected \(expectedVersion.map(String.init) ?? "any") \(String(decoding: value, as: UTF8.self))"
        )
        return try next(&puts)
    }

    func delete(name: String, expectedVersion: Int64?) async throws(VaultMessageError) -> SecretSummary {
        calls.append("delete \(name) expected \(expectedVersion.map(String.init) ?? "any")")
        return try next(&deletes)
    }

    private func next<Value>(_ script: inout [Result<Value, VaultMessageError>]) throws(VaultMessageError) -> Value {
        guard !script.isEmpty else { throw VaultMessageError(.unavailable, "unscripted call") }
        return try script.removeFirst().get()
    }
}

/// Whether `text` (a description, a debug description or a `dump`) shows `secret`: as text, as an array of its
/// UTF-8 bytes, or as the one-number-per-line list `dump` prints for the bytes of a `Data`.
func shows(_ secret: String, in text: String) -> Bool {
    let bytes = Array(secret.utf8).map(Int.init)
    if text.contains(secret) || text.contains(bytes.map(String.init).joined(separator: ", ")) { return true }
    let dumpedNumbers = text.split(separator: "\n").compactMap { line in
        Int(line.drop { $0 == " " || $0 == "-" || $0 == "▿" }.trimmingCharacters(in: .whitespaces))
    }
    guard dumpedNumbers.count >= bytes.count else { return false }
    return (0...(dumpedNumbers.count - bytes.count)).contains { Array(dumpedNumbers[$0..<($0 + bytes.count)]) == bytes }
}
