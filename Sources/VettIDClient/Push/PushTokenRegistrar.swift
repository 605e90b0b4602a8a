// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
public import VettIDCore

/// Sends the device's APNs token to the server when ``PushTokenRegistrationPolicy`` says so, and remembers (in the
/// ``SecureStore``, as a digest) what the server confirmed.
///
/// An app calls ``tokenReceived(_:)`` from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`, and
/// ``sessionAvailable()`` whenever a vault session may have become available (after sign-in, enrollment or the
/// messaging set-up: `PUT /vault/push/token` needs the device's vault session). At sign-out it calls ``forget()``:
/// the server removes the token itself when the member signs out with the device's key, so the next session must
/// send it again.
///
/// Attempts run one after the other, so a token arriving while the app signs in is sent once. A failure is logged
/// (never with the token) and returned; nothing is remembered, so the next trigger tries again.
public actor PushTokenRegistrar {
    /// Sends one registration: the token, its environment, the bundle id.
    public typealias Register = @Sendable (PushDeviceToken, PushEnvironment, String) async throws(APIError) -> Void

    /// What an attempt did.
    public enum Outcome: Sendable {
        /// The server has the token now.
        case registered(PushTokenRegistrationPolicy.Reason)
        /// The server had it already: nothing was sent.
        case unchanged
        /// The system has not handed the app a token yet.
        case waitingForToken
        /// The server refused it or was not reached (`reauthentication_required` without a vault session,
        /// `push_not_configured`, …); the next trigger tries again.
        case failed(APIError)
    }

    /// The store key of the remembered registration: `<prefix>.push.registration`.
    public nonisolated let storageKey: String
    /// The build's APNs environment.
    public nonisolated let environment: PushEnvironment
    /// The app's bundle id.
    public nonisolated let bundleID: String
    private let store: any SecureStore
    private let policy: PushTokenRegistrationPolicy
    private let clock: any WallClock
    private nonisolated let logger: Logger
    private let device: @Sendable () async -> String
    private let register: Register
    private var token: PushDeviceToken?
    private var tail: Task<Outcome, Never>?
    /// Bumped by ``forget()``: an attempt that started before does not remember its registration.
    private var generation = 0

    /// A registrar over explicit parts (tests, apps that do not use ``VettID``).
    /// - Parameters:
    ///   - store: Where the last registration is remembered.
    ///   - environment: The build's APNs environment (``PushEnvironment/init(apsEnvironment:)``).
    ///   - bundleID: The app's bundle id, one the server pushes to.
    ///   - policy: When a token is sent again (``PushTokenRegistrationPolicy``).
    ///   - keyPrefix: The prefix of the store key the last registration is kept under (`<prefix>.push.registration`).
    ///   - clock: The current time, for the policy's age limit.
    ///   - logger: Where failures are logged (never the token).
    ///   - device: The device key's thumbprint (a new device key means a new device on the server).
    ///   - register: Sends a registration (``VaultService/registerPushToken(_:environment:bundleID:)``).
    public init(
        store: any SecureStore, environment: PushEnvironment, bundleID: String,
        policy: PushTokenRegistrationPolicy = .init(), keyPrefix: String = "vettid",
        clock: any WallClock = SystemWallClock(), logger: Logger = Logger(label: "dev.vettid.push"),
        device: @escaping @Sendable () async -> String, register: @escaping Register
    ) {
        self.store = store
        self.environment = environment
        self.bundleID = bundleID
        self.policy = policy
        self.storageKey = "\(keyPrefix).push.registration"
        self.clock = clock
        self.logger = logger
        self.device = device
        self.register = register
    }

    /// The registrar of `vettid`'s device: its store, device key, vault service, bundle id, clock and logger.
    public init(vettid: VettID, environment: PushEnvironment, policy: PushTokenRegistrationPolicy = .init()) {
        let vault = vettid.vault
        let deviceKeyStore = vettid.deviceKeyStore
        self.init(
            store: vettid.store, environment: environment, bundleID: vettid.configuration.bundleID, policy: policy,
            clock: vettid.configuration.clock, logger: vettid.configuration.logger,
            device: { (try? await deviceKeyStore.deviceKey().thumbprint) ?? "" },
            register: { token, environment, bundleID throws(APIError) in
                _ = try await vault.registerPushToken(token, environment: environment, bundleID: bundleID)
            })
    }

    /// The system handed the app `token`: sends it if the server does not have it yet.
    @discardableResult
    public func tokenReceived(_ token: PushDeviceToken) async -> Outcome {
        self.token = token
        return await attempt()
    }

    /// A vault session may exist now (sign-in, enrollment, messaging set-up): sends the token if the server does not
    /// have it yet.
    @discardableResult
    public func sessionAvailable() async -> Outcome {
        await attempt()
    }

    /// The system gave the app no usable token (`application(_:didFailToRegisterForRemoteNotificationsWithError:)`,
    /// or a token of an impossible length): logged; there are no wake pushes until a token arrives.
    public nonisolated func systemRegistrationFailed(_ error: any Error) {
        logger.warning("Push: no device token from the system", metadata: ["error": "\(error)"])
    }

    /// Forgets the remembered registration (sign-out: the server removed the token), keeping the token: the next
    /// session sends it again.
    public func forget() async {
        generation += 1
        try? await store.removeValue(forKey: storageKey)
    }

    private func attempt() async -> Outcome {
        let previous = tail
        let task = Task {
            _ = await previous?.value
            return await self.run()
        }
        tail = task
        return await task.value
    }

    private func run() async -> Outcome {
        guard let token else { return .waitingForToken }
        let started = generation
        let current = PushTokenRegistrationPolicy.Record(
            token: token, environment: environment, bundleID: bundleID, device: await device(),
            registeredAt: clock.now())
        let decision = policy.decide(current, last: await remembered(), now: current.registeredAt)
        guard case .register(let reason) = decision else { return .unchanged }
        do {
            try await register(token, environment, bundleID)
        } catch {
            // Without a vault session yet (signed in, messaging not set up) the next trigger sends it: not a warning.
            let level: Logger.Level = error.code == .reauthenticationRequired ? .debug : .warning
            logger.log(
                level: level, "Push: the device token could not be registered",
                metadata: ["error.code": "\(error.code)", "push.reason": "\(reason.rawValue)"])
            return .failed(error)
        }
        logger.debug("Push: device token registered", metadata: ["push.reason": "\(reason.rawValue)"])
        let confirmed = PushTokenRegistrationPolicy.Record(
            token: token, environment: environment, bundleID: bundleID, device: current.device,
            registeredAt: clock.now())
        if generation == started, let data = try? JSONEncoder().encode(confirmed) {
            try? await store.set(data, forKey: storageKey)
        }
        return .registered(reason)
    }

    private func remembered() async -> PushTokenRegistrationPolicy.Record? {
        guard let data = try? await store.data(forKey: storageKey) else { return nil }
        return try? JSONDecoder().decode(PushTokenRegistrationPolicy.Record.self, from: data)
    }
}
