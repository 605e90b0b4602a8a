import Foundation
import Observation
import VettIDClient
import VettIDNats
import VettIDViewModels

/// The example app's parts: the SDK's front door and the view models of its screens.
@Observable
@MainActor
final class ExampleAppModel {
    /// The SDK, or why it could not be configured.
    let vettid: Result<VettID, ConfigurationError>
    /// Sign-in and registration.
    let signIn: SignInViewModel?
    /// The vault status screen.
    let vaultStatus: VaultStatusViewModel?
    /// The messaging set-up and status line.
    let natsSetup: NatsSetupViewModel?
    /// The live NATS connection.
    let natsManager: NatsConnectionManager?
    /// The background jobs of the signed-in member (vault sync, NATS token refresh).
    private var backgroundJobs: (vault: VaultRefreshTask, nats: NatsTokenRefreshTask)?
    /// The enrollment in progress, if the sheet is open.
    var enrollment: EnrollmentViewModel?
    /// The server a typed invitation code is redeemed at.
    let serverURL: URL

    init(configuration: ExampleConfiguration) {
        serverURL = configuration.serverURL
        do throws(ConfigurationError) {
            let vettid = try VettID(
                configuration: VettIDConfiguration(
                    baseURL: configuration.serverURL, teamID: configuration.teamID, bundleID: configuration.bundleID,
                    developmentToken: configuration.developmentToken))
            self.vettid = .success(vettid)
            signIn = SignInViewModel(actions: .live(vettid.auth))
            vaultStatus = VaultStatusViewModel(actions: .live(vettid.vault))
            let natsManager = vettid.natsManager()
            self.natsManager = natsManager
            natsSetup = NatsSetupViewModel(actions: .live(service: vettid.vault, manager: natsManager))
        } catch {
            vettid = .failure(error)
            signIn = nil
            vaultStatus = nil
            natsSetup = nil
            natsManager = nil
        }
    }

    /// Registers the launch handlers of `dev.vettid.vaultsync` and `dev.vettid.natsrefresh` (both in Info.plist's
    /// `BGTaskSchedulerPermittedIdentifiers`); called from `App.init`, before launch finishes.
    func registerBackgroundTasks() {
        #if canImport(BackgroundTasks) && !os(macOS)
            do {
                try BackgroundRefreshScheduler.shared.registerLaunchHandlers()
            } catch {
                assertionFailure("background tasks: \(error)")
            }
        #endif
    }

    /// Attaches the member's background jobs (after sign-in): a vault sync and a NATS token refresh every six
    /// hours, sharing the one refresh request iOS keeps.
    func startBackgroundJobs() async {
        #if canImport(BackgroundTasks) && !os(macOS)
            guard backgroundJobs == nil, case .success(let vettid) = vettid, let natsManager else { return }
            let scheduler = BackgroundRefreshScheduler.shared
            let vault = VaultRefreshTask(service: vettid.vault, scheduler: scheduler)
            let nats = NatsTokenRefreshTask(
                provider: vettid.vault, store: NatsCredentialStore(store: vettid.store), scheduler: scheduler,
                manager: natsManager)
            backgroundJobs = (vault, nats)
            try? await vault.start()
            try? await nats.start()
        #endif
    }

    /// Detaches them (at sign-out).
    func stopBackgroundJobs() async {
        #if canImport(BackgroundTasks) && !os(macOS)
            guard let jobs = backgroundJobs else { return }
            backgroundJobs = nil
            await jobs.vault.stop()
            await jobs.nats.stop()
            BackgroundRefreshScheduler.shared.detach(identifier: VaultRefreshTask.defaultIdentifier)
            BackgroundRefreshScheduler.shared.detach(identifier: NatsTokenRefreshTask.defaultIdentifier)
        #endif
    }

    /// Opens a new enrollment.
    func startEnrollment() {
        guard case .success(let vettid) = vettid else { return }
        enrollment = EnrollmentViewModel(
            actions: .live(vettid.vault), userInputs: [vettid.auth.currentUser?.email ?? ""],
            manualEntryOrigin: serverURL)
    }
}
