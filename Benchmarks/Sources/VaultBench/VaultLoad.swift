// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import Logging
import VettIDClient

/// What one phase measured.
struct PhaseResult: Sendable {
    /// Concurrent clients.
    var clients: Int
    /// Completed operations (enrollments or authentications).
    var succeeded = 0
    /// Failed operations.
    var errors = 0
    /// Latency of every completed operation.
    var latencies: [Duration] = []
    /// From the start until the last client finished.
    var elapsed = Duration.zero
    /// Resident memory over the phase.
    var memory = PhaseMemory(before: 0, peak: 0, after: 0, peakIsExact: false)
    /// The first error seen, for the report.
    var firstError: String?

    /// Completed operations per second.
    var perSecond: Double { Double(succeeded) / elapsed.seconds }

    /// The latency below which `fraction` of the operations completed (nearest rank).
    func percentile(_ fraction: Double) -> Duration {
        guard !latencies.isEmpty else { return .zero }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }

    mutating func record(_ outcome: Result<Duration, any Error>) {
        switch outcome {
        case .success(let latency):
            succeeded += 1
            latencies.append(latency)
        case .failure(let error):
            errors += 1
            firstError = firstError ?? String(describing: error)
        }
    }

    mutating func merge(_ other: PhaseResult) {
        succeeded += other.succeeded
        errors += other.errors
        latencies += other.latencies
        firstError = firstError ?? other.firstError
    }
}

/// Simulated devices against one server: each is a `VaultService` with its own in-memory store and device key,
/// attesting with the development token, all sharing one HTTP transport.
struct VaultLoad: Sendable {
    let baseURL: URL
    let transport: BenchTransport
    let developmentToken: String

    static let vaultPassword = "Quartz-lantern-meadow-97"

    /// A new device: fresh key, empty store.
    func makeDevice() throws -> VaultService {
        var logger = Logger(label: "vaultbench-device")
        logger.logLevel = .error
        let store = InMemorySecureStore()
        return VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: baseURL, deviceType: .cli, deviceID: nil, logger: logger, transport: transport,
                credentialStorageKey: "vettid.vault.credential", now: { Date() }),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: DevelopmentTokenAttester(token: developmentToken),
            store: store)
    }

    /// Enrolls one new device per invitation, `clients` at a time. `invitations[m]` are member `m`'s; a client
    /// enrolls one member's invitations one after the other, because finalizing revokes the member's previous
    /// credential. Returns the phase and, per member, the device enrolled last (the one whose credential is live).
    func enroll(invitations: [[String]], clients: Int) async throws -> (PhaseResult, [VaultService?]) {
        let clock = ContinuousClock()
        let watch = MemoryWatch.start()
        let start = clock.now
        var phase = PhaseResult(clients: clients)
        var devices = [VaultService?](repeating: nil, count: invitations.count)
        try await withThrowingTaskGroup(of: (PhaseResult, [(Int, VaultService)]).self) { group in
            for worker in 0..<clients {
                group.addTask {
                    var result = PhaseResult(clients: 1)
                    var live: [(Int, VaultService)] = []
                    for member in stride(from: worker, to: invitations.count, by: clients) {
                        for payload in invitations[member] {
                            let device = try makeDevice()
                            let started = clock.now
                            do {
                                _ = try await device.enroll(
                                    invitation: try EnrollmentInvitationLink(parsing: payload),
                                    password: Self.vaultPassword)
                                result.record(.success(clock.now - started))
                                live.append((member, device))
                            } catch {
                                result.record(.failure(error))
                            }
                        }
                    }
                    return (result, live)
                }
            }
            for try await (result, live) in group {
                phase.merge(result)
                for (member, device) in live { devices[member] = device }
            }
        }
        phase.elapsed = clock.now - start
        phase.memory = await watch.stop()
        return (phase, devices)
    }

    /// Authenticates (action request + auth execute) with `devices`, one client per device, each starting its next
    /// authentication when the last answered, for `duration`. Every device authenticates once first, untimed.
    func authenticate(devices: [VaultService], duration: Duration) async throws -> PhaseResult {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices { group.addTask { _ = try await device.authenticate(password: Self.vaultPassword) } }
            try await group.waitForAll()
        }
        let clock = ContinuousClock()
        let watch = MemoryWatch.start()
        let start = clock.now
        let deadline = start + duration
        var phase = PhaseResult(clients: devices.count)
        await withTaskGroup(of: PhaseResult.self) { group in
            for device in devices {
                group.addTask {
                    var result = PhaseResult(clients: 1)
                    while clock.now < deadline {
                        let started = clock.now
                        do {
                            _ = try await device.authenticate(password: Self.vaultPassword)
                            result.record(.success(clock.now - started))
                        } catch {
                            result.record(.failure(error))
                        }
                    }
                    return result
                }
            }
            for await result in group { phase.merge(result) }
        }
        phase.elapsed = clock.now - start
        phase.memory = await watch.stop()
        return phase
    }
}
