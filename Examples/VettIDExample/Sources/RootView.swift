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
                .task { [auth = vettid.auth] in
                    await auth.restoreSession()
                }
            }
        }
    }
}

/// The home tab (vault card, messaging line) and the account tab.
struct SignedInView: View {
    let model: ExampleAppModel
    let vettid: VettID
    @State private var showsVault = false

    var body: some View {
        TabView {
            NavigationStack {
                List {
                    if let vaultStatus = model.vaultStatus {
                        VaultStatusCard(vaultStatus.card) { showsVault = true }
                    }
                    if let natsSetup = model.natsSetup {
                        NatsConnectionStatusView(setup: natsSetup, onSignIn: {})
                    }
                }
                .navigationTitle("VettID")
                .task { [model] in
                    await model.startBackgroundJobs()
                    await model.vaultStatus?.refresh()
                }
            }
            .tabItem { Label("Home", systemImage: "house") }
            NavigationStack {
                ProfileView(auth: vettid.auth, onSignIn: {})
            }
            .tabItem { Label("Account", systemImage: "person.crop.circle") }
        }
        .onDisappear { [model] in
            // Signed out: SignedInView leaves the hierarchy.
            Task { await model.stopBackgroundJobs() }
        }
        .sheet(isPresented: $showsVault) {
            if let vaultStatus = model.vaultStatus {
                NavigationStack {
                    VaultStatusView(
                        model: vaultStatus,
                        onEnroll: {
                            showsVault = false
                            model.startEnrollment()
                        },
                        onSignIn: { showsVault = false })
                }
            }
        }
        .sheet(isPresented: enrollmentShown) {
            if let enrollment = model.enrollment {
                EnrollmentView(model: enrollment) { model.enrollment = nil }
            }
        }
    }

    private var enrollmentShown: Binding<Bool> {
        Binding(get: { model.enrollment != nil }, set: { if !$0 { model.enrollment = nil } })
    }
}
