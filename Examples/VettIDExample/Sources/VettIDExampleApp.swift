// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import SwiftUI
import VettIDClient

/// The example app: sign in or register, enroll the device into the member's vault, see the vault and messaging
/// status, sync, keep secrets in the vault, sign out. It talks to a local `vettid server` unless `VETTID_SERVER_URL` says otherwise.
@main
struct VettIDExampleApp: App {
    @State private var model: ExampleAppModel
    #if canImport(UIKit)
        /// Registers for remote notifications and receives the device token.
        @UIApplicationDelegateAdaptor(ExampleAppDelegate.self) private var appDelegate
    #endif

    init() {
        // Background tasks must be registered before the app finishes launching (BGTaskScheduler); App.init runs
        // before that. The jobs are attached once the member has signed in.
        let model = ExampleAppModel(configuration: ExampleConfiguration.fromEnvironment())
        model.registerBackgroundTasks()
        _model = State(wrappedValue: model)
        Task { await model.launch() }
    }

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
                #if canImport(UIKit)
                    .task { @MainActor [appDelegate, model] in
                        // SwiftUI makes the delegate; the token it receives goes to the model from here on.
                        appDelegate.model = model
                    }
                #endif
        }
    }
}
