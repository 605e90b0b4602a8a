// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

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
    /// Sends the APNs device token to the server when it has to (wake pushes); `nil` without a push environment.
    let pushTokens: PushTokenRegistrar?
    /// The background jobs of the signed-in member (vault sync, NATS token refresh).
    private var backgroundJobs: (vault: VaultRefreshTask, nats: NatsTokenRefreshTask)?
    /// The sheet on screen: the vault status, the member's secrets, or an enrollment in progress. One
    /// `sheet(item:)` shows each, so going from the vault sheet to enrollment replaces one sheet by the other.
    var sheet: ExampleSheet?
    /// The server a typed invitation code is redeemed at.
    let serverURL: URL

    init(configuration: ExampleConfiguration) {
        serverURL = configuration.serverURL
        do throws(ConfigurationError) {
            // The keychain item the Notification Service Extension reads too (app group), where there is one.
            let storage = ExampleSharedStore.store().map { VettIDConfiguration.Storage.store($0) } ?? .platformDefault()
            let vettid = try VettID(
                configuration: VettIDConfiguration(
                    baseURL: configuration.serverURL, teamID: configuration.teamID, bundleID: configuration.bundleID,
                    developmentToken: configuration.developmentToken, storage: storage))
            self.vettid = .success(vettid)
            // Passkeys through iCloud Keychain; the screen offers none where the platform authenticator is missing.
            #if canImport(UIKit) && canImport(AuthenticationServices)
                signIn = SignInViewModel(actions: .live(vettid.auth, passkeys: ExamplePasskeys.authenticator()))
            #else
                signIn = SignInViewModel(actions: .live(vettid.auth))
            #endif
            vaultStatus = VaultStatusViewModel(actions: .live(vettid.vault))
            // What the extension took from the mailbox reaches the mailbox handler first.
            let natsManager = vettid.natsManager(
                configuration: .init(
                    logger: vettid.configuration.logger,
                    notificationInbox: MailboxNotificationInbox(store: vettid.store)))
            self.natsManager = natsManager
            pushTokens = configuration.pushEnvironment.map { PushTokenRegistrar(vettid: vettid, environment: $0) }
            natsSetup = NatsSetupViewModel(actions: .live(service: vettid.vault, manager: natsManager))
        } catch {
            vettid = .failure(error)
            signIn = nil
            vaultStatus = nil
            natsSetup = nil
            natsManager = nil
            pushTokens = nil
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

    /// Opens a new enrollment (replacing the vault sheet if it is open).
    func startEnrollment() {
        guard case .success(let vettid) = vettid else { return }
        sheet = .enrollment(
            EnrollmentViewModel(
                actions: .live(vettid.vault), userInputs: [vettid.auth.currentUser?.email ?? ""],
                manualEntryOrigin: serverURL))
    }

    /// Opens the member's secrets: a new view model each time, so nothing of a closed screen (a value shown, the
    /// add form, another member's list) is kept.
    func openSecrets() {
        guard case .success(let vettid) = vettid else { return }
        sheet = .secrets(SecretsViewModel(service: vettid.vault))
    }

    /// At launch (also a background launch, where no view appears): restores the stored session and, when a
    /// member is signed in, attaches the background jobs, so a refresh launch finds them attached.
    func launch() async {
        guard case .success(let vettid) = vettid else { return }
        await vettid.auth.restoreSession()
        if vettid.auth.isAuthenticated { await startBackgroundJobs() }
    }

    /// After sign-in: the background jobs, messaging set-up (which opens the vault session the push token is
    /// registered with), the push token, the vault status.
    func signedIn() async {
        await startBackgroundJobs()
        if natsSetup?.state == .initial { await natsSetup?.start() }
        await pushTokens?.sessionAvailable()
        await vaultStatus?.refresh()
    }

    /// The system handed the app its APNs token (at every launch): sent to the server unless it has it already, now
    /// or once a vault session exists.
    func pushTokenReceived(_ deviceToken: Data) async {
        guard let pushTokens else { return }
        do {
            await pushTokens.tokenReceived(try PushDeviceToken(deviceToken))
        } catch {
            pushTokens.systemRegistrationFailed(error)
        }
    }

    /// The system could not register the app for remote notifications: logged (no token, no wake pushes).
    func pushRegistrationFailed(_ error: any Error) {
        pushTokens?.systemRegistrationFailed(error)
    }

    /// The enrollment sheet closed: a new vault session may send the push token.
    func enrollmentEnded() {
        sheet = nil
        Task { [pushTokens] in await pushTokens?.sessionAvailable() }
    }

    /// Ends the session (the sign-in screen follows), e.g. when messaging reports that it has ended. The server
    /// drops the device's push token at this sign-out, so the next session sends it again.
    func signOut() async {
        guard case .success(let vettid) = vettid else { return }
        await stopBackgroundJobs()
        await pushTokens?.forget()
        await vettid.auth.logout()
    }
}

/// What the example app shows as a sheet.
enum ExampleSheet: Identifiable {
    /// The vault status screen.
    case vaultStatus
    /// The member's secrets (over the sealed session the messaging set-up opened).
    case secrets(SecretsViewModel)
    /// An enrollment.
    case enrollment(EnrollmentViewModel)

    var id: String {
        switch self {
        case .vaultStatus: "vault-status"
        case .secrets(let model): "secrets-\(ObjectIdentifier(model).hashValue)"
        case .enrollment(let model): "enrollment-\(ObjectIdentifier(model).hashValue)"
        }
    }
}
