// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import VettIDAPI

/// The generated `APIProtocol` conformance: forwards each operation of `openapi.yaml` to the feature controller
/// that owns it, and nothing else.
///
/// Why one forwarding type rather than one conformance per controller: swift-openapi-generator emits a single
/// `registerHandlers(on:)` for the whole document, and that generated code is what decodes, validates and
/// content-negotiates every operation. Keeping it whole keeps every operation's wire behaviour exactly what the
/// document says, while each controller (``AuthController``, ``InvitationController``,
/// ``VaultEnrollmentController``, ``VaultAuthController``, ``VaultLifecycleController``,
/// ``NATSCredentialsController``, ``PushController``, ``PasskeyController``, ``GateController``, ``OperationsController``) is built from only the services it
/// uses. The compiler checks the forwarding: an operation added to the document does not build until a
/// controller implements it and a line here names it. Routes outside the document (the Gate proxy, `/metrics`,
/// the portal) are the `RouteCollection`s the controllers return from `routes()`.
struct APIOperations: APIProtocol {
    let operations: OperationsController
    let auth: AuthController
    let invitations: InvitationController
    let enrollment: VaultEnrollmentController
    let vaultAuth: VaultAuthController
    let vaultLifecycle: VaultLifecycleController
    let nats: NATSCredentialsController
    let push: PushController
    let passkeys: PasskeyController
    let gate: GateController

    /// Every operation of the document, on one collection; an empty body counts as no body
    /// (``EmptyBodyMiddleware``).
    func routes() throws -> RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        try registerHandlers(on: routes, middlewares: [EmptyBodyMiddleware()])
        return routes
    }

    // MARK: Operations
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        try await operations.getHealth(input)
    }
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        try await operations.getReadiness(input)
    }

    // MARK: Member auth
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        try await auth.register(input)
    }
    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        try await auth.login(input)
    }
    func refresh(_ input: Operations.Refresh.Input) async throws -> Operations.Refresh.Output {
        try await auth.refresh(input)
    }
    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await auth.logout(input)
    }
    func getCurrentUser(_ input: Operations.GetCurrentUser.Input) async throws -> Operations.GetCurrentUser.Output {
        try await auth.getCurrentUser(input)
    }

    // MARK: Passkeys
    func startPasskeyRegistration(_ input: Operations.StartPasskeyRegistration.Input) async throws
        -> Operations.StartPasskeyRegistration.Output
    {
        try await passkeys.startPasskeyRegistration(input)
    }
    func registerPasskey(_ input: Operations.RegisterPasskey.Input) async throws -> Operations.RegisterPasskey.Output {
        try await passkeys.registerPasskey(input)
    }
    func listPasskeys(_ input: Operations.ListPasskeys.Input) async throws -> Operations.ListPasskeys.Output {
        try await passkeys.listPasskeys(input)
    }
    func renamePasskey(_ input: Operations.RenamePasskey.Input) async throws -> Operations.RenamePasskey.Output {
        try await passkeys.renamePasskey(input)
    }
    func removePasskey(_ input: Operations.RemovePasskey.Input) async throws -> Operations.RemovePasskey.Output {
        try await passkeys.removePasskey(input)
    }
    func startPasskeySignIn(_ input: Operations.StartPasskeySignIn.Input) async throws
        -> Operations.StartPasskeySignIn.Output
    {
        try await passkeys.startPasskeySignIn(input)
    }
    func signInWithPasskey(_ input: Operations.SignInWithPasskey.Input) async throws
        -> Operations.SignInWithPasskey.Output
    {
        try await passkeys.signInWithPasskey(input)
    }

    // MARK: Invitations
    func listInvitations(_ input: Operations.ListInvitations.Input) async throws -> Operations.ListInvitations.Output {
        try await invitations.listInvitations(input)
    }
    func createInvitation(_ input: Operations.CreateInvitation.Input) async throws -> Operations.CreateInvitation.Output
    {
        try await invitations.createInvitation(input)
    }
    func revokeInvitation(_ input: Operations.RevokeInvitation.Input) async throws -> Operations.RevokeInvitation.Output
    {
        try await invitations.revokeInvitation(input)
    }
    func getInvitationQRCode(_ input: Operations.GetInvitationQRCode.Input) async throws
        -> Operations.GetInvitationQRCode.Output
    {
        try await invitations.getInvitationQRCode(input)
    }

    // MARK: Vault enrollment
    func enrollStart(_ input: Operations.EnrollStart.Input) async throws -> Operations.EnrollStart.Output {
        try await enrollment.enrollStart(input)
    }
    func enrollAttestation(_ input: Operations.EnrollAttestation.Input) async throws
        -> Operations.EnrollAttestation.Output
    {
        try await enrollment.enrollAttestation(input)
    }
    func enrollPassword(_ input: Operations.EnrollPassword.Input) async throws -> Operations.EnrollPassword.Output {
        try await enrollment.enrollPassword(input)
    }
    func enrollFinalize(_ input: Operations.EnrollFinalize.Input) async throws -> Operations.EnrollFinalize.Output {
        try await enrollment.enrollFinalize(input)
    }

    // MARK: Vault authentication
    func actionRequest(_ input: Operations.ActionRequest.Input) async throws -> Operations.ActionRequest.Output {
        try await vaultAuth.actionRequest(input)
    }
    func authExecute(_ input: Operations.AuthExecute.Input) async throws -> Operations.AuthExecute.Output {
        try await vaultAuth.authExecute(input)
    }

    // MARK: Vault lifecycle
    func getVaultStatus(_ input: Operations.GetVaultStatus.Input) async throws -> Operations.GetVaultStatus.Output {
        try await vaultLifecycle.getVaultStatus(input)
    }
    func syncVault(_ input: Operations.SyncVault.Input) async throws -> Operations.SyncVault.Output {
        try await vaultLifecycle.syncVault(input)
    }
    func vaultSessionKeys(_ input: Operations.VaultSessionKeys.Input) async throws
        -> Operations.VaultSessionKeys.Output
    {
        try await vaultLifecycle.vaultSessionKeys(input)
    }
    func deployVault(_ input: Operations.DeployVault.Input) async throws -> Operations.DeployVault.Output {
        try await vaultLifecycle.deployVault(input)
    }

    // MARK: NATS credentials
    func createNatsAccount(_ input: Operations.CreateNatsAccount.Input) async throws
        -> Operations.CreateNatsAccount.Output
    {
        try await nats.createNatsAccount(input)
    }
    func createNatsToken(_ input: Operations.CreateNatsToken.Input) async throws -> Operations.CreateNatsToken.Output {
        try await nats.createNatsToken(input)
    }
    func getNatsStatus(_ input: Operations.GetNatsStatus.Input) async throws -> Operations.GetNatsStatus.Output {
        try await nats.getNatsStatus(input)
    }
    func revokeNatsToken(_ input: Operations.RevokeNatsToken.Input) async throws -> Operations.RevokeNatsToken.Output {
        try await nats.revokeNatsToken(input)
    }

    // MARK: Push tokens
    func registerPushToken(_ input: Operations.RegisterPushToken.Input) async throws
        -> Operations.RegisterPushToken.Output
    {
        try await push.registerPushToken(input)
    }
    func removePushToken(_ input: Operations.RemovePushToken.Input) async throws -> Operations.RemovePushToken.Output {
        try await push.removePushToken(input)
    }

    // MARK: Gate
    func createAttestationChallenge(_ input: Operations.CreateAttestationChallenge.Input) async throws
        -> Operations.CreateAttestationChallenge.Output
    {
        try await gate.createAttestationChallenge(input)
    }
    func registerAttestation(_ input: Operations.RegisterAttestation.Input) async throws
        -> Operations.RegisterAttestation.Output
    {
        try await gate.registerAttestation(input)
    }
    func createGateToken(_ input: Operations.CreateGateToken.Input) async throws -> Operations.CreateGateToken.Output {
        try await gate.createGateToken(input)
    }
}
