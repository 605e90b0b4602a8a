// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of BackgroundTasks (type-checking only; every body traps).

public import Dispatch
public import Foundation

/// https://developer.apple.com/documentation/backgroundtasks/bgtask
open class BGTask {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
    public var identifier: String { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
    public var expirationHandler: (() -> Void)?
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
    public func setTaskCompleted(success: Bool) { fatalError("shim") }
}

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
open class BGTaskRequest {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
    public let identifier: String
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
    public var earliestBeginDate: Date?
    init(identifier: String) { self.identifier = identifier }
}

/// https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest
public final class BGAppRefreshTaskRequest: BGTaskRequest {
    /// https://developer.apple.com/documentation/backgroundtasks/bgapprefreshtaskrequest/init(identifier:)
    public override init(identifier: String) { super.init(identifier: identifier) }
}

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
/// (not `Sendable`: the page lists no such conformance).
public final class BGTaskScheduler {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
    public static var shared: BGTaskScheduler { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
    /// (`dispatch_queue_t?` is `DispatchQueue?` in Swift; the page shows a launch handler that is not `@Sendable`).
    /// All handlers must be registered before the app finishes launching, once per identifier and process.
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
    /// ("a total of 1 refresh task and 10 processing tasks scheduled at any time").
    public func submit(_ taskRequest: BGTaskRequest) throws { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
    public func cancel(taskRequestWithIdentifier identifier: String) { fatalError("shim") }
}
