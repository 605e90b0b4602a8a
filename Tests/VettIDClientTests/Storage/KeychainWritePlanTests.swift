// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDClient

/// The keychain store's write decisions over `OSStatus` codes: what a racing writer or a racing delete leads to.
@Suite("Keychain write plan")
struct KeychainWritePlanTests {
    @Test("an update that succeeds is the whole write")
    func updateSucceeds() {
        var plan = KeychainWritePlan()
        let result1 = plan.start()
        #expect(result1 == .update)
        let result2 = plan.next(after: .update, status: KeychainWritePlan.success)
        #expect(result2 == .done)
    }

    @Test("no item: add it")
    func missingItemIsAdded() {
        var plan = KeychainWritePlan()
        _ = plan.start()
        let result3 = plan.next(after: .update, status: KeychainWritePlan.itemNotFound)
        #expect(result3 == .perform(.add))
        let result4 = plan.next(after: .add, status: KeychainWritePlan.success)
        #expect(result4 == .done)
    }

    @Test("an add that finds the item a racing writer added becomes an update")
    func duplicateOnAddIsRetriedAsUpdate() {
        var plan = KeychainWritePlan()
        _ = plan.start()
        let result5 = plan.next(after: .update, status: KeychainWritePlan.itemNotFound)
        #expect(result5 == .perform(.add))
        let result6 = plan.next(after: .add, status: KeychainWritePlan.duplicateItem)
        #expect(result6 == .perform(.update))
        let result7 = plan.next(after: .update, status: KeychainWritePlan.success)
        #expect(result7 == .done)
    }

    @Test("an update that finds the item deleted meanwhile becomes an add again")
    func racingDeleteIsRetriedAsAdd() {
        var plan = KeychainWritePlan()
        _ = plan.start()
        let result8 = plan.next(after: .update, status: KeychainWritePlan.itemNotFound)
        #expect(result8 == .perform(.add))
        let result9 = plan.next(after: .add, status: KeychainWritePlan.duplicateItem)
        #expect(result9 == .perform(.update))
        let result10 = plan.next(after: .update, status: KeychainWritePlan.itemNotFound)
        #expect(result10 == .perform(.add))
        let result11 = plan.next(after: .add, status: KeychainWritePlan.success)
        #expect(result11 == .done)
    }

    @Test("races are retried a bounded number of times, then the last status is reported")
    func boundedRetries() {
        var plan = KeychainWritePlan(maximumAttempts: 4)
        var step = plan.start()
        var calls = 1
        while true {
            let status = step == .update ? KeychainWritePlan.itemNotFound : KeychainWritePlan.duplicateItem
            switch plan.next(after: step, status: status) {
            case .perform(let next):
                step = next
                calls += 1
            case .done:
                Issue.record("a write that never succeeds cannot be done")
                return
            case .fail(let failed, let status):
                #expect(calls == 4)
                #expect(failed == .add && status == KeychainWritePlan.duplicateItem)
                return
            }
        }
    }

    @Test(
        "other statuses fail at once, the missing entitlement of unsigned tools among them",
        arguments: [KeychainWritePlan.missingEntitlement, -25308, -50])
    func otherStatusesFail(status: Int32) {
        var plan = KeychainWritePlan()
        _ = plan.start()
        let result12 = plan.next(after: .update, status: status)
        #expect(result12 == .fail(.update, status: status))
        var adding = KeychainWritePlan()
        _ = adding.start()
        _ = adding.next(after: .update, status: KeychainWritePlan.itemNotFound)
        let result13 = adding.next(after: .add, status: status)
        #expect(result13 == .fail(.add, status: status))
    }

    @Test("the status codes are Security's")
    func statusCodes() {
        #expect(KeychainWritePlan.itemNotFound == -25300)
        #expect(KeychainWritePlan.duplicateItem == -25299)
        #expect(KeychainWritePlan.missingEntitlement == -34018)
        #expect(SecureStoreError.Code.missingEntitlement.rawValue == "missing_entitlement")
    }
}
