// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The decisions of ``BackgroundRefreshScheduler``: several periodic jobs (vault sync, NATS token refresh) share
/// **one** pending system request, as iOS allows one `BGAppRefreshTaskRequest` at a time ("a total of 1 refresh
/// task"; a second `submit` fails with `tooManyPendingTaskRequests`).
///
/// A plain value over dates, tested on Linux; the scheduler carries out the ``Action``s it returns.
///
/// - Each job has a due date (``schedule(_:at:)``). The pending request is always the one of the job due first:
///   when that changes, the old request is cancelled and the new one submitted.
/// - When the system launches the request (``launched(_:at:)``), every job due by then (within
///   ``coalescingWindow``) runs, and the launched job runs whatever its due date (a freshly launched process knows no
///   due dates yet). A job that is not attached yet (it is attached after sign-in, and a background launch starts a
///   new process) waits for ``attach(_:)`` until the launch ends or ``waitEnded()``.
/// - While a launch runs no request is submitted; when its last job finishes, the next request is submitted and
///   then the launch is completed, successful only if every job succeeded.
struct BackgroundRefreshPlan: Sendable, Equatable {
    /// The one request submitted to the system.
    struct Request: Sendable, Equatable {
        /// The identifier it is submitted under (the job due first).
        var identifier: String
        /// When it may run at the earliest (that job's due date).
        var earliestBeginDate: Date
    }

    /// What the scheduler does.
    enum Action: Sendable, Equatable {
        /// Submit this request (replacing a pending one of the same identifier).
        case submit(Request)
        /// Cancel the pending request of this identifier.
        case cancel(identifier: String)
        /// Run these jobs' handlers now.
        case start([String])
        /// Tell the system the launch is over.
        case complete(success: Bool)
    }

    /// The launch in progress.
    struct Launch: Sendable, Equatable {
        /// Jobs whose handlers run.
        var running: Set<String>
        /// Jobs due in this launch whose handlers are not attached yet.
        var waiting: Set<String>
        /// Whether every job finished so far succeeded.
        var succeeded: Bool
    }

    /// Jobs due this long after a launch run in it too.
    let coalescingWindow: TimeInterval
    /// Each scheduled job's due date.
    private(set) var due: [String: Date] = [:]
    /// Jobs with a handler.
    private(set) var attached: Set<String> = []
    /// The request submitted to the system, if any.
    private(set) var pending: Request?
    /// The launch in progress, if any.
    private(set) var launch: Launch?

    /// A plan that coalesces jobs due within `coalescingWindow` of a launch.
    init(coalescingWindow: TimeInterval) {
        self.coalescingWindow = max(0, coalescingWindow)
    }

    /// A job's handler is attached; a job waiting in the current launch starts.
    mutating func attach(_ identifier: String) -> [Action] {
        attached.insert(identifier)
        guard var current = launch, current.waiting.remove(identifier) != nil else { return [] }
        current.running.insert(identifier)
        launch = current
        return [.start([identifier])]
    }

    /// A job's handler is detached (sign-out): it is no longer due, and no longer waited for.
    mutating func detach(_ identifier: String) -> [Action] {
        attached.remove(identifier)
        due[identifier] = nil
        if var current = launch, current.waiting.remove(identifier) != nil {
            launch = current
            return completeIfDone()
        }
        return requestActions()
    }

    /// A job is due at `date` (replacing its previous due date).
    mutating func schedule(_ identifier: String, at date: Date) -> [Action] {
        due[identifier] = date
        return requestActions()
    }

    /// A job is no longer due.
    mutating func cancel(_ identifier: String) -> [Action] {
        due[identifier] = nil
        return requestActions()
    }

    /// The system launched the request of `identifier` at `now`. `nil` when a launch is already in progress (the
    /// scheduler completes the extra one at once).
    mutating func launched(_ identifier: String, at now: Date) -> [Action]? {
        guard launch == nil else { return nil }
        pending = nil
        let limit = now.addingTimeInterval(coalescingWindow)
        var jobs = Set(due.filter { $0.value <= limit }.keys)
        jobs.insert(identifier)
        for job in jobs { due[job] = nil }
        let running = jobs.intersection(attached)
        launch = Launch(running: running, waiting: jobs.subtracting(attached), succeeded: true)
        return running.isEmpty ? [] : [.start(running.sorted())]
    }

    /// A job of the current launch finished.
    mutating func finished(_ identifier: String, success: Bool) -> [Action] {
        guard var current = launch, current.running.remove(identifier) != nil else { return [] }
        current.succeeded = current.succeeded && success
        launch = current
        return completeIfDone()
    }

    /// The jobs still waiting for their handler are given up (the wait for attachment ended); the launch is then
    /// unsuccessful.
    mutating func waitEnded() -> [Action] {
        guard var current = launch, !current.waiting.isEmpty else { return [] }
        current.waiting = []
        current.succeeded = false
        launch = current
        return completeIfDone()
    }

    /// The system is taking the time back: the launch ends now, unsuccessful. Waiting jobs are given up; running jobs
    /// are cancelled by the scheduler, and their finishing later is ignored (Apple: a task not completed when its
    /// expiration handler returns "may result in the system killing your app").
    mutating func expired() -> [Action] {
        guard var current = launch else { return [] }
        current.waiting = []
        current.running = []
        current.succeeded = false
        launch = current
        return completeIfDone()
    }

    /// The system refused `request`: nothing is pending (the next change submits again).
    mutating func submitFailed(_ request: Request) {
        if pending == request { pending = nil }
    }

    /// The launch ends once nothing runs or waits: the next request, then the completion.
    private mutating func completeIfDone() -> [Action] {
        guard let current = launch, current.running.isEmpty, current.waiting.isEmpty else { return [] }
        launch = nil
        return requestActions() + [.complete(success: current.succeeded)]
    }

    /// Keeps the one pending request on the job due first (nothing while a launch runs).
    private mutating func requestActions() -> [Action] {
        guard launch == nil else { return [] }
        let first = due.min { ($0.value, $0.key) < ($1.value, $1.key) }
        guard let first else {
            guard let old = pending else { return [] }
            pending = nil
            return [.cancel(identifier: old.identifier)]
        }
        let request = Request(identifier: first.key, earliestBeginDate: first.value)
        guard request != pending else { return [] }
        var actions: [Action] = []
        if let old = pending, old.identifier != request.identifier {
            actions.append(.cancel(identifier: old.identifier))
        }
        pending = request
        actions.append(.submit(request))
        return actions
    }
}
