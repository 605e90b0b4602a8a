// Shim of BackgroundTasks (type-checking only; every body traps).

public import Dispatch
public import Foundation

/// https://developer.apple.com/documentation/backgroundtasks/bgtask
open class BGTask {
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
public final class BGTaskScheduler: @unchecked Sendable {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
    public static var shared: BGTaskScheduler { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping @Sendable (BGTask) -> Void
    ) -> Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
    public func submit(_ taskRequest: BGTaskRequest) throws { fatalError("shim") }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
    public func cancel(taskRequestWithIdentifier identifier: String) { fatalError("shim") }
}
