// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import VettIDAPI
import VettIDAttestation
import VettIDCore

/// `GET /portal/passkeys` and its forms: the member's passkeys (name, created, last used, whether synced), adding
/// one, renaming and removing one, through the API's ``PasskeyService`` (so the same checks and security events).
///
/// Renaming and removing are plain forms. Adding needs ``PortalPasskeyScript``: it fetches the options
/// (`POST /portal/passkeys/options`), has the browser create the passkey and posts the result in the add form's
/// hidden `credential` field (`POST /portal/passkeys`); without the script the add form stays hidden and the page
/// says why.
struct PortalPasskeysPage: Sendable {
    struct Content: PortalPageContent {
        struct Passkey: Sendable {
            let id: String
            let name: String
            let created: PortalTime
            let lastUsed: PortalTime?
            /// `synced` (backed up), `eligible` (may be backed up, is not yet) or `device` (never leaves it).
            let sync: String
            let syncLabel: String
        }

        let passkeys: [Passkey]
        /// What the add form's name field says.
        var name = ""

        static let usesPasskeyScript = true

        static let template = PortalTemplate(
            name: "passkeys",
            source: #"""
                {{> head}}
                <p>A passkey signs you in with your device's screen lock or a security key instead of your password, and cannot be phished. Your password keeps working.</p>
                {{^empty(passkeys)}}
                <div class="table-wrap">
                <table id="passkeys">
                <caption>Your passkeys, newest first</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Synced</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
                <tbody>
                {{#passkeys}}
                <tr data-passkey-id="{{id}}" data-sync="{{sync}}">
                <td><strong class="passkey-name">{{name}}</strong></td>
                <td data-label="Created"><time datetime="{{created.machine}}">{{created.human}}</time></td>
                <td data-label="Last used">{{#lastUsed}}<time datetime="{{machine}}">{{human}}</time>{{/lastUsed}}{{^lastUsed}}Not yet{{/lastUsed}}</td>
                <td data-label="Synced" class="passkey-sync">{{syncLabel}}</td>
                <td class="passkey-actions">
                <form method="post" action="/portal/passkeys/rename" class="passkey-rename">
                <input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="id" value="{{id}}">
                <label for="rename-{{id}}">New name</label>
                <input id="rename-{{id}}" name="name" type="text" value="{{name}}" maxlength="64" required autocomplete="off">
                <button type="submit">Rename</button>
                </form>
                <form method="post" action="/portal/passkeys/remove" class="passkey-remove">
                <input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="id" value="{{id}}">
                <button type="submit" class="danger" aria-label="Remove the passkey {{name}}">Remove</button>
                </form>
                </td>
                </tr>
                {{/passkeys}}
                </tbody>
                </table>
                </div>
                {{/empty(passkeys)}}
                {{#empty(passkeys)}}<p id="no-passkeys">You have no passkey yet.</p>{{/empty(passkeys)}}
                <section class="card" aria-labelledby="add-passkey-heading">
                <h2 id="add-passkey-heading">Add a passkey</h2>
                <p id="passkey-needs-script">Adding a passkey needs JavaScript in a browser that supports passkeys. Renaming and removing work without it.</p>
                <form id="passkey-add-form" method="post" action="/portal/passkeys" novalidate hidden>
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                <input type="hidden" name="credential" value="">
                <div class="field">
                <label for="passkey-name">Name <span class="optional">(optional)</span></label>
                <input id="passkey-name" name="name" type="text" maxlength="64" autocomplete="off" value="{{name}}" aria-describedby="passkey-name-hint">
                <p class="hint" id="passkey-name-hint">So you can tell your passkeys apart, such as "Work laptop".</p>
                </div>
                <button type="submit" id="passkey-add-button">Add a passkey</button>
                </form>
                <p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
                </section>
                {{> foot}}
                """#)
    }

    static let title = "Passkeys"

    let passkeys: PasskeyService
    let responder: PortalResponder

    /// The list; with `formError`, answered with `answer` instead of 200.
    func show(
        _ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .badRequest,
        name: String = ""
    ) async throws -> Response {
        let records = try await passkeys.list(for: context.member.member)
        var content = Content(
            passkeys: records.sorted { $0.createdAtMilliseconds > $1.createdAtMilliseconds }.map(Self.row))
        content.name = PortalText.displayable(name)
        let page = responder.makePage(
            context.visit, title: Self.title, section: .passkeys, formError: formError, content: content)
        return responder.page(page, context.visit, status: formError == nil ? .ok : answer)
    }

    /// `POST /portal/passkeys/options`: the options of adding a passkey, as WebAuthn's
    /// `PublicKeyCredentialCreationOptionsJSON`.
    func options(_ context: MemberPortalContext) async throws -> Response {
        let options = try await passkeys.registrationOptions(for: context.member.member)
        return try responder.json(Components.Schemas.PasskeyCreationOptions(options))
    }

    /// `POST /portal/passkeys`: `credential` is WebAuthn's `RegistrationResponseJSON`, `name` optional.
    func add(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        let name = visit.form.trimmed("name")
        do {
            guard let text = visit.form["credential"], !text.isEmpty,
                let json = try? JSONDecoder().decode(
                    Components.Schemas.PasskeyRegistrationResponseJSON.self, from: Data(text.utf8))
            else { throw APIFailure.invalidRequest("the browser sent no new passkey") }
            _ = try await passkeys.register(
                try PasskeyRegistrationResponse(json), name: name, for: context.member.member, origin: visit.origin,
                logger: visit.info.logger)
            return responder.redirect("/portal/passkeys?done=passkey-added", visit)
        } catch let failure as APIFailure {
            return try await show(
                context, formError: PortalWords.describe(failure), answer: failure.status, name: name ?? "")
        }
    }

    /// `POST /portal/passkeys/rename`: `id` (one of the member's passkeys) and `name`.
    func rename(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        guard let id = visit.form.trimmed("id"), id.utf8.count <= 1400 else {
            return try await show(context, formError: "Choose a passkey to rename.")
        }
        do {
            _ = try await passkeys.rename(
                id: id, to: visit.form["name"] ?? "", for: context.member.member, origin: visit.origin)
            return responder.redirect("/portal/passkeys?done=passkey-renamed", visit)
        } catch let failure as APIFailure {
            return try await show(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }

    /// `POST /portal/passkeys/remove`: `id` (one of the member's passkeys).
    func remove(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        guard let id = visit.form.trimmed("id"), id.utf8.count <= 1400 else {
            return try await show(context, formError: "Choose a passkey to remove.")
        }
        do {
            try await passkeys.remove(
                id: id, for: context.member.member, origin: visit.origin, logger: visit.info.logger)
            return responder.redirect("/portal/passkeys?done=passkey-removed", visit)
        } catch let failure as APIFailure {
            return try await show(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }

    private static func row(_ record: PasskeyRecord) -> Content.Passkey {
        let (sync, label) =
            switch (record.backupEligible, record.backupState) {
            case (true, true): ("synced", "Synced (backed up)")
            case (true, false): ("eligible", "Can sync; not backed up yet")
            default: ("device", "This device only")
            }
        return .init(
            id: record.id, name: PortalText.displayable(record.name), created: PortalTime(record.createdAt),
            lastUsed: record.lastUsedAt.map(PortalTime.init), sync: sync, syncLabel: label)
    }
}
