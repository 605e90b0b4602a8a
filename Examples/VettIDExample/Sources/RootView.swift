// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import SwiftUI
import VettIDClient
import VettIDNats
import VettIDNatsUI
import VettIDUI
import VettIDViewModels

/// Sign-in while signed out; the home and account tabs once signed in.
struct RootView: View {
    let model: ExampleAppModel

    var body: some View {
        switch model.vettid {
        case .failure(let error):
            Text("The SDK could not be configured: \(error.description)")
                .padding()
        case .success(let vettid):
            if vettid.auth.isAuthenticated {
                SignedInView(model: model, vettid: vettid)
            } else if let signIn = model.signIn {
                NavigationStack {
                    SignInView(model: signIn)
                }
            }
        }
    }
}

/// The home tab (vault card, secrets, messaging line) and the account tab; the vault status, secrets and enrollment
/// sheets.
struct SignedInView: View {
    @Bindable var model: ExampleAppModel
    let vettid: VettID

    init(model: ExampleAppModel, vettid: VettID) {
        _model = Bindable(model)
        self.vettid = vettid
    }

    var body: some View {
        TabView {
            NavigationStack {
                List {
                    if let vaultStatus = model.vaultStatus {
                        VaultStatusCard(vaultStatus.card) { model.sheet = .vaultStatus }
                    }
                    Button {
                        model.openSecrets()
                    } label: {
                        Label("Secrets", systemImage: "key.fill")
                    }
                    if let natsSetup = model.natsSetup {
                        NatsConnectionStatusView(
                            setup: natsSetup, connection: model.natsManager,
                            onSignIn: { Task { await model.signOut() } })
                    }
                }
                .navigationTitle("VettID")
                .task { [model] in
                    await model.signedIn()
                }
            }
            .tabItem { Label("Home", systemImage: "house") }
            NavigationStack {
                ProfileView(auth: vettid.auth, onSignIn: { Task { await model.signOut() } })
            }
            .tabItem { Label("Account", systemImage: "person.crop.circle") }
        }
        .sheet(item: $model.sheet) { sheet in
            switch sheet {
            case .vaultStatus:
                if let vaultStatus = model.vaultStatus {
                    NavigationStack {
                        VaultStatusView(
                            model: vaultStatus,
                            onEnroll: { model.startEnrollment() },
                            onSignIn: { Task { await model.signOut() } })
                    }
                }
            case .secrets(let secrets):
                NavigationStack {
                    SecretsView(model: secrets)
                }
            case .enrollment(let enrollment):
                EnrollmentView(model: enrollment) { model.enrollmentEnded() }
            }
        }
        .onDisappear { [model] in
            // Signed out: SignedInView leaves the hierarchy.
            Task { await model.stopBackgroundJobs() }
        }
    }
}
