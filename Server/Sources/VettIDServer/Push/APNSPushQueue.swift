// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The pushes waiting to be sent: bounded, first in first out, one per device.
///
/// A push for a device that already has one waiting replaces it in place (the device will fetch everything once
/// woken, so one wake is enough); a push beyond ``capacity`` for a new device is refused. Pure: the provider holds
/// it under a lock.
struct APNSPushQueue: Sendable {
    /// What became of an offered push.
    enum Admission: Sendable, Equatable {
        /// Queued behind the others.
        case queued
        /// Replaced the push already waiting for the same device.
        case coalesced
        /// Refused: the queue is full.
        case full
    }

    /// A device, as the queue tells pushes apart.
    struct DeviceKey: Hashable, Sendable {
        let deviceToken: String
        let environment: APNSEnvironment
        let topic: String
    }

    /// Pushes waiting at most.
    let capacity: Int
    private var order: [DeviceKey] = []
    private var head = 0
    private var waiting: [DeviceKey: APNSPushRequest] = [:]

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Pushes waiting.
    var count: Int { waiting.count }

    /// Offers `request`.
    mutating func offer(_ request: APNSPushRequest) -> Admission {
        let key = Self.key(of: request)
        if waiting[key] != nil {
            waiting[key] = request
            return .coalesced
        }
        guard waiting.count < capacity else { return .full }
        waiting[key] = request
        order.append(key)
        return .queued
    }

    /// Takes the push that has waited longest.
    mutating func next() -> APNSPushRequest? {
        guard head < order.count else { return nil }
        let key = order[head]
        head += 1
        if head >= 1_024 && head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        } else if head == order.count {
            order.removeAll(keepingCapacity: true)
            head = 0
        }
        return waiting.removeValue(forKey: key)
    }

    static func key(of request: APNSPushRequest) -> DeviceKey {
        DeviceKey(deviceToken: request.deviceToken, environment: request.environment, topic: request.topic)
    }
}
