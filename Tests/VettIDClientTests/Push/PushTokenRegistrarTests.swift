// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDTestSupport

/// When the app sends its APNs token (docs/protocol.md 7.6): the decision, and the registrar over a store and a
/// scripted server.
@Suite("Push token registration")
struct PushTokenRegistrarTests {
    static let token = try! PushDeviceToken(Array(repeating: UInt8(0xab), count: 32))
    static let otherToken = try! PushDeviceToken(Array(repeating: UInt8(0xcd), count: 32))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func record(
        _ token: PushDeviceToken = token, environment: PushEnvironment = .sandbox,
        bundleID: String = "dev.vettid.example",
        device: String = "jkt-1", at date: Date = start
    ) -> PushTokenRegistrationPolicy.Record {
        .init(token: token, environment: environment, bundleID: bundleID, device: device, registeredAt: date)
    }

    // MARK: The decision

    @Test("the aps-environment entitlement names the APNs service: development is the sandbox")
    func apsEnvironment() {
        #expect(PushEnvironment(apsEnvironment: "development") == .sandbox)
        #expect(PushEnvironment(apsEnvironment: "production") == .production)
        #expect(PushEnvironment(apsEnvironment: " production ") == .production)
        #expect(PushEnvironment(apsEnvironment: "sandbox") == nil)
        #expect(PushEnvironment(apsEnvironment: "") == nil)
        #expect(PushEnvironment(apsEnvironment: "$(VETTID_APS_ENVIRONMENT)") == nil)
    }

    @Test("first registration; then nothing while everything is the same and younger than the maximum age")
    func firstThenUnchanged() {
        let policy = PushTokenRegistrationPolicy(maximumAge: 3600)
        let now = Self.start.addingTimeInterval(3599)
        #expect(policy.decide(Self.record(at: now), last: nil, now: now) == .register(.first))
        #expect(policy.decide(Self.record(at: now), last: Self.record(), now: now) == .unchanged)
    }

    @Test("a new token, environment, bundle id or device key is sent again at once")
    func changesAreSent() {
        let policy = PushTokenRegistrationPolicy()
        let last = Self.record()
        let now = Self.start.addingTimeInterval(60)
        #expect(policy.decide(Self.record(Self.otherToken, at: now), last: last, now: now) == .register(.tokenChanged))
        #expect(
            policy.decide(Self.record(environment: .production, at: now), last: last, now: now)
                == .register(.environmentChanged))
        #expect(
            policy.decide(Self.record(bundleID: "com.other", at: now), last: last, now: now)
                == .register(.bundleChanged))
        #expect(policy.decide(Self.record(device: "jkt-2", at: now), last: last, now: now) == .register(.deviceChanged))
    }

    @Test("a registration older than the maximum age, or dated in the future, is sent again")
    func staleRegistrations() {
        let policy = PushTokenRegistrationPolicy(maximumAge: 3600)
        let later = Self.start.addingTimeInterval(3600)
        #expect(policy.decide(Self.record(at: later), last: Self.record(), now: later) == .register(.stale))
        let earlier = Self.start.addingTimeInterval(-1)
        #expect(policy.decide(Self.record(at: earlier), last: Self.record(), now: earlier) == .register(.stale))
    }

    @Test("the remembered record holds a digest of the token, never the token")
    func recordHoldsNoToken() throws {
        let data = try JSONEncoder().encode(Self.record())
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains(Self.token.hex))
        #expect(text.contains("tokenDigest"))
        #expect(Self.record().isSameRegistration(as: Self.record(at: Self.start.addingTimeInterval(99))))
        #expect(!Self.record().isSameRegistration(as: Self.record(Self.otherToken)))
    }

    // MARK: The registrar

    /// The server side: the registrations sent, scripted failures, and a gate that holds a registration in flight.
    actor FakeServer {
        private(set) var sent: [(token: String, environment: PushEnvironment, bundleID: String)] = []
        private(set) var started = 0
        var failures: [APIError] = []
        var gate: AsyncGate?

        func failNext(_ error: APIError) { failures.append(error) }
        func hold(with gate: AsyncGate) { self.gate = gate }

        func register(_ token: PushDeviceToken, _ environment: PushEnvironment, _ bundleID: String)
            async throws(APIError)
        {
            started += 1
            if let gate { await gate.wait() }
            if !failures.isEmpty { throw failures.removeFirst() }
            sent.append((token.hex, environment, bundleID))
        }
    }

    static func registrar(
        store: any SecureStore, server: FakeServer, clock: ManualClock, device: String = "jkt-1"
    ) -> PushTokenRegistrar {
        PushTokenRegistrar(
            store: store, environment: .sandbox, bundleID: "dev.vettid.example", policy: .init(maximumAge: 3600),
            clock: clock.wall, device: { device },
            register: { token, environment, bundleID throws(APIError) in
                try await server.register(token, environment, bundleID)
            })
    }

    @Test("no token yet: nothing is sent until the system hands one over; then it is sent once")
    func waitsForTheToken() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        let registrar = Self.registrar(store: store, server: server, clock: clock)
        guard case .waitingForToken = await registrar.sessionAvailable() else {
            Issue.record("sent without a token"); return
        }
        guard case .registered(.first) = await registrar.tokenReceived(Self.token) else {
            Issue.record("not registered")
            return
        }
        guard case .unchanged = await registrar.sessionAvailable() else { Issue.record("sent twice"); return }
        guard case .unchanged = await registrar.tokenReceived(Self.token) else { Issue.record("sent twice"); return }
        let sent = await server.sent
        #expect(sent.count == 1)
        #expect(sent.first?.token == Self.token.hex)
        #expect(sent.first?.environment == .sandbox)
        #expect(sent.first?.bundleID == "dev.vettid.example")
        #expect(try await store.data(forKey: registrar.storageKey) != nil)
    }

    @Test("a relaunch with the same token sends nothing; a new token, or an hour later, is sent")
    func relaunch() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        await Self.registrar(store: store, server: server, clock: clock).tokenReceived(Self.token)
        let relaunched = Self.registrar(store: store, server: server, clock: clock)
        guard case .unchanged = await relaunched.tokenReceived(Self.token) else { Issue.record("sent again"); return }
        guard case .registered(.tokenChanged) = await relaunched.tokenReceived(Self.otherToken) else {
            Issue.record("a new token was not sent")
            return
        }
        clock.advance(3600)
        guard case .registered(.stale) = await relaunched.sessionAvailable() else {
            Issue.record("an old registration was not renewed")
            return
        }
        #expect(await server.sent.count == 3)
    }

    @Test("a failure is returned and not remembered: the next trigger sends the token again")
    func failureIsRetried() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        let registrar = Self.registrar(store: store, server: server, clock: clock)
        await server.failNext(APIError(code: .reauthenticationRequired, description: "no vault session"))
        guard case .failed(let error) = await registrar.tokenReceived(Self.token) else {
            Issue.record("the failure was not reported")
            return
        }
        #expect(error.code == .reauthenticationRequired)
        #expect(try await store.data(forKey: registrar.storageKey) == nil)
        guard case .registered(.first) = await registrar.sessionAvailable() else {
            Issue.record("not retried")
            return
        }
        #expect(await server.sent.count == 1)
    }

    @Test("after sign-out (forget) the next session sends the token again; a new device key is another device")
    func forgetAndNewDevice() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        let registrar = Self.registrar(store: store, server: server, clock: clock)
        await registrar.tokenReceived(Self.token)
        await registrar.forget()
        guard case .registered(.first) = await registrar.sessionAvailable() else {
            Issue.record("not sent after forget")
            return
        }
        let reset = Self.registrar(store: store, server: server, clock: clock, device: "jkt-2")
        guard case .registered(.deviceChanged) = await reset.tokenReceived(Self.token) else {
            Issue.record("not sent for a new device key")
            return
        }
        #expect(await server.sent.count == 3)
    }

    @Test("a token arriving while a registration is in flight is sent once")
    func attemptsRunOneAfterTheOther() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        let registrar = Self.registrar(store: store, server: server, clock: clock)
        let gate = AsyncGate()
        await server.hold(with: gate)
        async let first = registrar.tokenReceived(Self.token)
        #expect(await eventually { await server.started == 1 })
        async let second = registrar.tokenReceived(Self.token)
        async let third = registrar.sessionAvailable()
        await gate.open()
        let outcomes = await [first, second, third]
        let registered = outcomes.filter { if case .registered = $0 { true } else { false } }
        #expect(registered.count == 1)
        #expect(await server.sent.count == 1)
    }

    @Test("a sign-out (forget) while a registration is in flight: that registration is not remembered")
    func forgetDuringARegistration() async throws {
        let (store, server, clock) = (InMemorySecureStore(), FakeServer(), ManualClock(start: Self.start))
        let registrar = Self.registrar(store: store, server: server, clock: clock)
        let gate = AsyncGate()
        await server.hold(with: gate)
        async let first = registrar.tokenReceived(Self.token)
        #expect(await eventually { await server.started == 1 })
        await registrar.forget()
        await gate.open()
        guard case .registered = await first else { Issue.record("not registered"); return }
        #expect(try await store.data(forKey: registrar.storageKey) == nil)
        guard case .registered(.first) = await registrar.sessionAvailable() else {
            Issue.record("the next session did not send it again")
            return
        }
    }
}
