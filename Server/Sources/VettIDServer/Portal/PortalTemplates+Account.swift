// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension PortalTemplates {
    static let account: [String: String] = [
        "register": #"""
        {{> head}}
        <form method="post" action="/portal/register" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{layout.csrf}}">
        <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="{{email}}"{{#errors.email}} aria-invalid="true" aria-describedby="email-error"{{/errors.email}}>
        {{#errors.email}}<p class="field-error" id="email-error">{{errors.email}}</p>{{/errors.email}}
        </div>
        <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="password-hint{{#errors.password}} password-error{{/errors.password}}"{{#errors.password}} aria-invalid="true"{{/errors.password}}>
        <p class="hint" id="password-hint">At least {{minimumLength}} characters. A few unrelated words are easy to remember and hard to guess.</p>
        {{#errors.password}}<div class="field-error" id="password-error"><p>{{errors.password}}</p>{{^empty(passwordReasons)}}<ul>{{#passwordReasons}}<li>{{.}}</li>{{/passwordReasons}}</ul>{{/empty(passwordReasons)}}</div>{{/errors.password}}
        </div>
        <div class="field">
        <label for="first_name">First name <span class="optional">(optional)</span></label>
        <input id="first_name" name="first_name" type="text" autocomplete="given-name" value="{{firstName}}"{{#errors.firstName}} aria-invalid="true" aria-describedby="first_name-error"{{/errors.firstName}}>
        {{#errors.firstName}}<p class="field-error" id="first_name-error">{{errors.firstName}}</p>{{/errors.firstName}}
        </div>
        <div class="field">
        <label for="last_name">Last name <span class="optional">(optional)</span></label>
        <input id="last_name" name="last_name" type="text" autocomplete="family-name" value="{{lastName}}"{{#errors.lastName}} aria-invalid="true" aria-describedby="last_name-error"{{/errors.lastName}}>
        {{#errors.lastName}}<p class="field-error" id="last_name-error">{{errors.lastName}}</p>{{/errors.lastName}}
        </div>
        <button type="submit">Create account</button>
        </form>
        <p>Already have an account? <a href="/portal/sign-in">Sign in</a>.</p>
        {{> foot}}
        """#,
        "sign-in": #"""
        {{> head}}
        <form method="post" action="/portal/sign-in" class="card" novalidate>
        <input type="hidden" name="csrf" value="{{layout.csrf}}">
        <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}"{{#errors.email}} aria-invalid="true" aria-describedby="email-error"{{/errors.email}}>
        {{#errors.email}}<p class="field-error" id="email-error">{{errors.email}}</p>{{/errors.email}}
        </div>
        <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required{{#errors.password}} aria-invalid="true" aria-describedby="password-error"{{/errors.password}}>
        {{#errors.password}}<p class="field-error" id="password-error">{{errors.password}}</p>{{/errors.password}}
        </div>
        <button type="submit">Sign in</button>
        </form>
        <p>New to VettID? <a href="/portal/register">Create an account</a>.</p>
        {{> foot}}
        """#,
    ]
}
