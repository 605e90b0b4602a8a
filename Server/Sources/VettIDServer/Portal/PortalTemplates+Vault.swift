// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension PortalTemplates {
    static let vault: [String: String] = [
        "dashboard": #"""
        {{> head}}
        <section class="card" aria-labelledby="vault-heading">
        <h2 id="vault-heading">Your vault</h2>
        <p class="status status-{{status.value}}" id="vault-status" data-status="{{status.value}}"><strong>{{status.label}}</strong></p>
        <p>{{status.explanation}}</p>
        <dl class="facts">
        <dt>Last sync</dt><dd id="last-sync">{{#lastSync}}<time datetime="{{machine}}">{{human}}</time>{{/lastSync}}{{^lastSync}}Never{{/lastSync}}</dd>
        <dt>Transaction keys remaining</dt><dd id="keys-remaining">{{#keysRemaining}}{{keysRemaining}}{{/keysRemaining}}{{^keysRemaining}}None yet{{/keysRemaining}}</dd>
        {{#deviceSummary}}<dt>Enrolled device</dt><dd id="device-summary">{{deviceSummary}}</dd>{{/deviceSummary}}
        </dl>
        {{#canDeploy}}
        <form method="post" action="/portal/vault/deploy" id="deploy-form">
        <input type="hidden" name="csrf" value="{{layout.csrf}}">
        <button type="submit">Deploy vault</button>
        </form>
        {{/canDeploy}}
        {{#needsDevice}}<p><a class="button" href="/portal/invitations">Invite a device</a> to enroll your phone first.</p>{{/needsDevice}}
        </section>
        {{> foot}}
        """#,
        "devices": #"""
        {{> head}}
        <p>The device enrolled in your vault authenticates to it with a key that never leaves the device. Revoking it stops it at once; enroll a new one with an invitation.</p>
        {{^empty(devices)}}
        <div class="table-wrap">
        <table id="devices">
        <caption>Enrolled devices, newest first</caption>
        <thead><tr><th scope="col">Device</th><th scope="col">Enrolled</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#devices}}
        <tr data-credential-id="{{id}}" data-state="{{state}}">
        <td><strong>{{kind}}</strong><br><span class="detail">{{assurance}}</span></td>
        <td data-label="Enrolled"><time datetime="{{enrolled.machine}}">{{enrolled.human}}</time></td>
        <td data-label="Last used">{{#lastUsed}}<time datetime="{{machine}}">{{human}}</time>{{/lastUsed}}{{^lastUsed}}Not yet{{/lastUsed}}</td>
        <td data-label="State">{{stateLabel}}</td>
        <td>{{#isActive}}<form method="post" action="/portal/devices/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="credential_id" value="{{id}}"><button type="submit" class="danger" aria-label="Revoke {{kind}} enrolled {{enrolled.human}}">Revoke</button></form>{{/isActive}}</td>
        </tr>
        {{/devices}}
        </tbody>
        </table>
        </div>
        {{/empty(devices)}}
        {{#empty(devices)}}<p id="no-devices">No device is enrolled yet. <a href="/portal/invitations">Invite a device</a>.</p>{{/empty(devices)}}
        {{> foot}}
        """#,
        "invitations": #"""
        {{> head}}
        <section class="card" aria-labelledby="new-heading">
        <h2 id="new-heading">New invitation</h2>
        <p>An invitation lets one phone enroll into your vault. Scan its QR code with the VettID app on the phone.</p>
        <form method="post" action="/portal/invitations" id="invite-form" novalidate>
        <input type="hidden" name="csrf" value="{{layout.csrf}}">
        <div class="field">
        <label for="label">Name for the device <span class="optional">(optional)</span></label>
        <input id="label" name="label" type="text" maxlength="100" value="{{label}}"{{#errors.label}} aria-invalid="true" aria-describedby="label-error"{{/errors.label}}>
        {{#errors.label}}<p class="field-error" id="label-error">{{errors.label}}</p>{{/errors.label}}
        </div>
        <div class="field">
        <label for="expires_in_minutes">Valid for</label>
        <select id="expires_in_minutes" name="expires_in_minutes"{{#errors.expiresInMinutes}} aria-invalid="true" aria-describedby="expires_in_minutes-error"{{/errors.expiresInMinutes}}>
        {{#lifetimes}}<option value="{{minutes}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/lifetimes}}
        </select>
        {{#errors.expiresInMinutes}}<p class="field-error" id="expires_in_minutes-error">{{errors.expiresInMinutes}}</p>{{/errors.expiresInMinutes}}
        </div>
        <button type="submit">Create invitation</button>
        </form>
        </section>
        <h2>Pending invitations</h2>
        {{^empty(pending)}}
        <div class="table-wrap">
        <table id="invitations">
        <caption>Invitations that can still be used</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
        {{#pending}}
        <tr data-invitation>
        <td>{{label}}</td>
        <td data-label="Created"><time datetime="{{created.machine}}">{{created.human}}</time></td>
        <td data-label="Expires"><time datetime="{{expires.machine}}">{{expires.human}}</time></td>
        <td class="actions">
        <form method="post" action="/portal/invitations/show"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="invitation" value="{{reference}}"><button type="submit" aria-label="Show the QR code of {{label}}, created {{created.human}}">Show QR code</button></form>
        <form method="post" action="/portal/invitations/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="invitation" value="{{reference}}"><button type="submit" class="danger" aria-label="Revoke {{label}}, created {{created.human}}">Revoke</button></form>
        </td>
        </tr>
        {{/pending}}
        </tbody>
        </table>
        </div>
        {{/empty(pending)}}
        {{#empty(pending)}}<p id="no-invitations">No invitation is pending.</p>{{/empty(pending)}}
        {{> foot}}
        """#,
        "invitation": #"""
        {{> head}}
        <section class="card invitation" aria-labelledby="scan-heading">
        <h2 id="scan-heading">Scan with the VettID app</h2>
        <img id="invitation-qr" src="{{qrDataURI}}" width="{{qrSize}}" height="{{qrSize}}" alt="QR code of the invitation. If you cannot scan it, type the code below into the app.">
        <dl class="facts">
        <dt>Code</dt><dd><code id="invitation-code">{{code}}</code></dd>
        <dt>Link</dt><dd><code id="invitation-link">{{link}}</code></dd>
        <dt>Valid until</dt><dd id="invitation-expiry"><time datetime="{{expires.machine}}">{{expires.human}}</time></dd>
        {{#label}}<dt>Name</dt><dd>{{label}}</dd>{{/label}}
        </dl>
        <p>Anyone who has this code can enroll a device into your vault until it is used or expires. Do not share it.</p>
        </section>
        <p><a href="/portal/invitations">Back to invitations</a> · <a href="/portal/devices">See enrolled devices</a></p>
        {{> foot}}
        """#,
    ]
}
