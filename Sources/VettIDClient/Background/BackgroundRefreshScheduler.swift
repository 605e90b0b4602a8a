// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import VettIDCore
import VettIDCrypto

/// A ``BackgroundScheduler`` that runs every SDK job (vault sync, NATS token refresh) through **one** system
/// background request at a time: what iOS requires (`BGTaskScheduler` keeps "a total of 1 refresh task"; a second
/// `BGAppRefreshTaskRequest` fails), and what it needs at launch (launch handlers registered before the app finishes
/// launching, once per process).
///
/// On iOS use `BackgroundRefreshScheduler.shared` (over `BGTaskScheduler`):
///
/// ```swift
/// // App.init / application(_:didFinishLaunchingWithOptions:): before launch ends, both seed identifiers
/// try BackgroundRefreshScheduler.shared.registerLaunchHandlers()
///
/// // after sign-in: attach the jobs (their first run is six hours away unless told otherwise)
/// let vaultRefresh = VaultRefreshTask(service: vettid.vault, scheduler: BackgroundRefreshScheduler.shared)
/// try await vaultRefresh.start()
/// let natsRefresh = NatsTokenRefreshTask(provider: vettid.vault, store: credentialStore,
///                                        scheduler: BackgroundRefreshScheduler.shared, manager: manager)
/// try await natsRefresh.start()
///
/// // sign-out
/// await vaultRefresh.stop(); BackgroundRefreshScheduler.shared.detach(identifier: VaultRefreshTask.defaultIdentifier)
/// ```
///
/// How it works (the decisions are `BackgroundRefreshPlan`'s and `BackgroundTaskRegistry`'s, tested on Linux):
/// - ``registerLaunchHandlers(for:)`` registers one launch handler per identifier with the system; the registry is
///   process-wide, so a second registration (this or another scheduler) is a ``BackgroundSchedulerError``
///   (`already_registered`), and so is one after launch (`registration_closed`), never an Objective-C exception.
/// - ``register(identifier:handler:)`` attaches a job to an identifier registered at launch (`not_registered`
///   otherwise); ``detach(identifier:)`` removes it.
/// - Each ``schedule(identifier:interval:)`` sets the job's due date; the one pending system request is always the
///   one of the job due first (the other one is cancelled).
/// - When the system launches the request, every job due by then (or within ``coalescingWindow``) runs; a job not
///   attached yet (a background launch starts a new process, and jobs are attached after sign-in) is waited for
///   ``attachWait``. The jobs reschedule themselves, the next request is submitted, then the system is told the
///   launch is over (successful if every job succeeded). When the system expires the launch, it is completed
///   (unsuccessful) at once, before the expiration handler returns, and the jobs' tasks are cancelled; a job that
///   finishes after that changes nothing.
///
/// Nothing survives the process but the one request the system holds.
public final class BackgroundRefreshScheduler: BackgroundScheduler, Sendable {
    /// The identifiers the SDK's jobs use: `dev.vettid.vaultsync` and `dev.vettid.natsrefresh`. Both go into the
    /// app's `BGTaskSchedulerPermittedIdentifiers`.
    public static let launchIdentifiers = [VaultRefreshTask.defaultIdentifier, NatsTokenRefreshTask.defaultIdentifier]
    /// Fifteen minutes.
    public static let defaultCoalescingWindow: Duration = .seconds(15 * 60)
    /// Ten seconds.
    public static let defaultAttachWait: Duration = .seconds(10)

    /// Jobs due this long after a launch run in it too.
    public let coalescingWindow: Duration
    /// How long a launch waits for a due job that is not attached yet.
    public let attachWait: Duration
    private let system: any BackgroundRefreshSystem
    private let clock: any Clock<Duration>
    private let wallClock: any WallClock
    private let logger: Logger

    private struct State {
        var plan: BackgroundRefreshPlan
        var handlers: [String: BackgroundTaskHandler] = [:]
        /// Identifiers whose launch handler this scheduler registered with the system.
        var registered: Set<String> = []
        var launch: (any BackgroundRefreshLaunch)?
        var launchGeneration: UInt64 = 0
        var running: [String: Task<Void, Never>] = [:]
        var attachTimer: Task<Void, Never>?
    }

    // All mutable state is in this box; system calls and tasks are made under its lock (the system never calls
    // back from inside them) and tasks only touch state through it.
    private let state: LockedValue<State>

    /// Creates a scheduler over `system`.
    /// - Parameters:
    ///   - system: The operating system's scheduler (`BGTaskRefreshSystem` on iOS; use `BackgroundRefreshScheduler.shared` there).
    ///   - coalescingWindow: Jobs due this long after a launch run in it too (``defaultCoalescingWindow``).
    ///   - attachWait: How long a launch waits for a job not attached yet (``defaultAttachWait``).
    ///   - clock: Times ``attachWait`` (`ContinuousClock` unless given).
    ///   - logger: Where scheduling is logged (identifiers and dates only).
    ///   - wallClock: The wall clock for due dates.
    public init(
        system: any BackgroundRefreshSystem,
        coalescingWindow: Duration = BackgroundRefreshScheduler.defaultCoalescingWindow,
        attachWait: Duration = BackgroundRefreshScheduler.defaultAttachWait,
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "dev.vettid.background"),
        wallClock: any WallClock = SystemWallClock()
    ) {
        self.system = system
        self.coalescingWindow = coalescingWindow
        self.attachWait = attachWait
        self.clock = clock
        self.logger = logger
        self.wallClock = wallClock
        self.state = LockedValue(State(plan: BackgroundRefreshPlan(coalescingWindow: Self.seconds(coalescingWindow))))
    }

    /// Registers the launch handlers of `identifiers` with the system. Call it once, before the app finishes
    /// launching (`App.init`, `application(_:didFinishLaunchingWithOptions:)`); calling it again on the same
    /// scheduler is harmless.
    /// - Throws: ``BackgroundSchedulerError`` `registration_failed` (not in `BGTaskSchedulerPermittedIdentifiers`),
    ///   `registration_closed` (after launch), `already_registered` (another scheduler registered it).
    public func registerLaunchHandlers(for identifiers: [String] = BackgroundRefreshScheduler.launchIdentifiers)
        throws(BackgroundSchedulerError)
    {
        for identifier in identifiers {
            try state.withLock { state throws(BackgroundSchedulerError) in
                guard !state.registered.contains(identifier) else { return }
                try system.register(identifier: identifier) { [weak self] launch in
                    guard let self else { return launch.setCompleted(success: false) }
                    self.handleLaunch(launch)
                }
                state.registered.insert(identifier)
            }
            logger.debug("Background: launch handler registered", metadata: ["background.identifier": "\(identifier)"])
        }
    }

    /// Attaches (or replaces) the job of `identifier`, whose launch handler was registered at launch. A launch
    /// waiting for it runs it now.
    /// - Throws: ``BackgroundSchedulerError`` `not_registered` when ``registerLaunchHandlers(for:)`` did not register
    ///   `identifier`.
    public func register(identifier: String, handler: @escaping BackgroundTaskHandler) throws(BackgroundSchedulerError)
    {
        try state.withLock { state throws(BackgroundSchedulerError) in
            guard state.registered.contains(identifier) else { throw Self.notRegistered(identifier) }
            state.handlers[identifier] = handler
            try? perform(state.plan.attach(identifier), on: &state)
        }
    }

    /// Detaches the job of `identifier` (at sign-out): it is no longer scheduled, and a launch no longer waits for it.
    public func detach(identifier: String) {
        state.withLock { state in
            state.handlers[identifier] = nil
            try? perform(state.plan.detach(identifier), on: &state)
        }
    }

    /// Makes the job of `identifier` due `interval` from now; the system's one request follows the job due first.
    /// - Throws: ``BackgroundSchedulerError`` `not_registered` (no job attached), `submit_failed` (the system refused
    ///   the request; nothing is pending then, the next change submits again).
    public func schedule(identifier: String, interval: Duration) throws(BackgroundSchedulerError) {
        let due = wallClock.now().addingTimeInterval(Self.seconds(interval))
        try state.withLock { state throws(BackgroundSchedulerError) in
            guard state.handlers[identifier] != nil else { throw Self.notRegistered(identifier) }
            try perform(state.plan.schedule(identifier, at: due), on: &state)
        }
    }

    /// The job of `identifier` is no longer due; a run in progress finishes.
    public func cancel(identifier: String) {
        state.withLock { state in try? perform(state.plan.cancel(identifier), on: &state) }
    }

    /// The request the system holds: the identifier and earliest begin date of the job due first.
    public var pendingRequest: (identifier: String, earliestBeginDate: Date)? {
        state.withLock { state in state.plan.pending.map { ($0.identifier, $0.earliestBeginDate) } }
    }

    /// Whether a system launch is in progress.
    public var isLaunchInProgress: Bool {
        state.withLock { state in state.launch != nil }
    }

    /// The job of `identifier`'s due date, if it is scheduled.
    public func dueDate(identifier: String) -> Date? {
        state.withLock { state in state.plan.due[identifier] }
    }

    // MARK: - Launches

    private func handleLaunch(_ launch: any BackgroundRefreshLaunch) {
        let accepted = state.withLock { state -> Bool in
            guard let actions = state.plan.launched(launch.identifier, at: wallClock.now()) else { return false }
            state.launch = launch
            state.launchGeneration += 1
            launch.setExpirationHandler { [weak self] in self?.expire() }
            try? perform(actions, on: &state)
            if state.plan.launch?.waiting.isEmpty == false {
                let generation = state.launchGeneration
                let (clock, wait) = (self.clock, attachWait)
                state.attachTimer = Task { [weak self] in
                    do {
                        try await clock.sleep(for: wait)
                    } catch {
                        return
                    }
                    self?.attachWaitEnded(generation: generation)
                }
            }
            return true
        }
        guard accepted else {
            logger.notice(
                "Background: a launch arrived while another runs; completed at once",
                metadata: ["background.identifier": "\(launch.identifier)"])
            return launch.setCompleted(success: true)
        }
        logger.debug("Background: launched", metadata: ["background.identifier": "\(launch.identifier)"])
    }

    /// A job started in launch `generation` finished; ignored when that launch is over (it expired).
    private func finished(_ identifier: String, success: Bool, generation: UInt64) {
        let current = state.withLock { state -> Bool in
            guard state.launchGeneration == generation, state.launch != nil else { return false }
            state.running[identifier] = nil
            try? perform(state.plan.finished(identifier, success: success), on: &state)
            return true
        }
        logger.debug(
            current ? "Background: job finished" : "Background: job of an expired launch finished; ignored",
            metadata: ["background.identifier": "\(identifier)", "background.success": "\(success)"])
    }

    private func attachWaitEnded(generation: UInt64) {
        state.withLock { state in
            guard state.launchGeneration == generation, state.launch != nil else { return }
            try? perform(state.plan.waitEnded(), on: &state)
        }
    }

    /// The system takes the time back: the launch is completed (unsuccessful) now, before this returns, as Apple
    /// requires of an expiration handler; the running jobs are cancelled and their later ends ignored.
    private func expire() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            let running = Array(state.running.values)
            state.running = [:]
            try? perform(state.plan.expired(), on: &state)
            return running
        }
        for task in tasks { task.cancel() }
        logger.notice("Background: the system expired the launch", metadata: ["background.cancelled": "\(tasks.count)"])
    }

    /// Carries out the plan's actions; throws the first submit failure after carrying out all of them.
    private func perform(_ actions: [BackgroundRefreshPlan.Action], on state: inout State)
        throws(BackgroundSchedulerError)
    {
        var failure: BackgroundSchedulerError?
        for action in actions {
            switch action {
            case .submit(let request):
                do {
                    try system.submit(identifier: request.identifier, earliestBeginDate: request.earliestBeginDate)
                    logger.debug(
                        "Background: request submitted",
                        metadata: [
                            "background.identifier": "\(request.identifier)",
                            "background.earliest_begin": "\(request.earliestBeginDate)",
                        ])
                } catch {
                    state.plan.submitFailed(request)
                    logger.error(
                        "Background: the system refused the request",
                        metadata: ["background.identifier": "\(request.identifier)", "error.code": "\(error.code)"])
                    failure = failure ?? error
                }
            case .cancel(let identifier):
                system.cancel(identifier: identifier)
            case .start(let identifiers):
                let generation = state.launchGeneration
                for identifier in identifiers {
                    guard let handler = state.handlers[identifier] else { continue }
                    state.running[identifier] = Task { [weak self] in
                        let success = await handler()
                        self?.finished(identifier, success: success, generation: generation)
                    }
                }
            case .complete(let success):
                state.attachTimer?.cancel()
                state.attachTimer = nil
                state.launch?.setCompleted(success: success)
                state.launch = nil
                logger.debug("Background: launch completed", metadata: ["background.success": "\(success)"])
            }
        }
        if let failure { throw failure }
    }

    private static func notRegistered(_ identifier: String) -> BackgroundSchedulerError {
        BackgroundSchedulerError(
            code: .notRegistered,
            message: "'\(identifier)' has no launch handler or no job: register it at launch "
                + "(registerLaunchHandlers(for:)) and attach its job (register(identifier:handler:)) first.")
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
