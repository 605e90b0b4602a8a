// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension PortalTemplates {
    static let activity: [String: String] = [
        "messaging": #"""
        {{> head}}
        <section class="card" aria-labelledby="account-heading">
        <h2 id="account-heading">NATS account</h2>
        {{#account}}
        <dl class="facts" id="nats-account">
        <dt>Owner space</dt><dd><code>{{ownerSpace}}</code></dd>
        <dt>Message space</dt><dd><code>{{messageSpace}}</code></dd>
        <dt>Created</dt><dd><time datetime="{{created.machine}}">{{created.human}}</time></dd>
        {{#endpoint}}<dt>Endpoint</dt><dd><code>{{endpoint}}</code></dd>{{/endpoint}}
        </dl>
        {{/account}}
        {{^account}}<p id="nats-account">Your devices have not set up messaging yet. The app does this after it enrolls.</p>{{/account}}
        </section>
        <h2>Active tokens</h2>
        {{^empty(tokens)}}
        <div class="table-wrap">
        <table id="nats-tokens">
        <caption>Tokens that can connect to your vault's messaging</caption>
        <thead><tr><th scope="col">Client</th><th scope="col">Issued</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#tokens}}
        <tr data-token-id="{{id}}">
        <td><strong>{{client}}</strong>{{#device}}<br><span class="detail">{{device}}</span>{{/device}}</td>
        <td data-label="Issued"><time datetime="{{issued.machine}}">{{issued.human}}</time></td>
        <td data-label="Expires"><time datetime="{{expires.machine}}">{{expires.human}}</time></td>
        <td><form method="post" action="/portal/messaging/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="token_id" value="{{id}}"><button type="submit" class="danger" aria-label="Revoke the {{client}} token issued {{issued.human}}">Revoke</button></form></td>
        </tr>
        {{/tokens}}
        </tbody>
        </table>
        </div>
        {{/empty(tokens)}}
        {{#empty(tokens)}}<p id="no-tokens">No token is active.</p>{{/empty(tokens)}}
        {{> foot}}
        """#,
        "security": #"""
        {{> head}}
        <p>What happened to your account, newest first. If you do not recognise something, revoke your device and its messaging tokens, then sign out.</p>
        {{^empty(events)}}
        <div class="table-wrap">
        <table id="security-events">
        <caption>Security events</caption>
        <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">From</th></tr></thead>
        <tbody>
        {{#events}}
        <tr data-kind="{{kind}}">
        <td data-label="When"><time datetime="{{at.machine}}">{{at.human}}</time></td>
        <td data-label="What">{{label}}{{#detail}}<br><span class="detail">{{detail}}</span>{{/detail}}</td>
        <td data-label="From">{{#ip}}{{ip}}{{/ip}}{{^ip}}Unknown address{{/ip}}{{#client}}<br><span class="detail">{{client}}</span>{{/client}}</td>
        </tr>
        {{/events}}
        </tbody>
        </table>
        </div>
        {{/empty(events)}}
        {{#empty(events)}}<p>Nothing yet.</p>{{/empty(events)}}
        {{> foot}}
        """#,
    ]
}
