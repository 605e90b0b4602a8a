// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDClient
import VettIDMessaging

/// The demo's vault data section: over the sealed session the messaging section opened, the device stores a secret,
/// lists it, reads it back after a vault authentication, updates the member's profile and deletes the secret.
@MainActor
struct VaultDataDemo {
    let reporter: DemoReporter

    func run(device: EnrolledDemoDevice) async throws {
        let secrets = device.vault.secrets
        let name = "demo-bank-pin"
        let value = "2468"
        try await reporter.step("vault: store a secret") {
            let stored = try await secrets.put(name: name, string: value, expectedVersion: 0)
            return ((), "'\(name)' version \(stored.version), \(stored.size) bytes, sealed in transit and at rest")
        }
        try await reporter.step("vault: list secrets") {
            let list = try await secrets.list()
            guard list.secrets.map(\.name) == [name] else {
                throw DemoFailure("the list is \(list.secrets.map(\.name))")
            }
            return (
                (),
                "\(list.secrets.count) secret (names and sizes only, no vault authentication needed); limits: \(list.limits.maxSecrets) secrets, \(list.limits.maxTotalBytes / 1024) KiB"
            )
        }
        try await reporter.step("vault: read after vault auth") {
            _ = try await device.vault.authenticate(password: device.vaultPassword)
            let secret = try await secrets.get(name: name)
            guard secret.value == Data(value.utf8) else { throw DemoFailure("the value read back differs") }
            return ((), "vault authentication of this device, then '\(name)' read back (\(secret.value.count) bytes)")
        }
        try await reporter.step("vault: profile") {
            let profile = try await device.vault.profile.update(set: ["display_name": "Demo Member"])
            return ((), "profile version \(profile.version): \(profile.fields.keys.sorted().joined(separator: ", "))")
        }
        try await reporter.step("vault: delete the secret") {
            try await secrets.delete(name: name)
            do {
                _ = try await secrets.get(name: name)
            } catch let error as VaultMessageError where error.code == .secretNotFound {
                return ((), "deleted; reading it again is secret_not_found")
            }
            throw DemoFailure("a deleted secret was read")
        }
    }
}
