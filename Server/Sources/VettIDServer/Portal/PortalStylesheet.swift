// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

/// The portal's one stylesheet, served at `/portal/static/portal.css` (the Content-Security-Policy allows no inline
/// style). Readable from 320 px up: below 40 rem tables become stacked cards and nothing scrolls sideways; focus
/// is always visible for keyboard users; colours meet WCAG AA contrast on white.
enum PortalStylesheet {
    static let path = "/portal/static/portal.css"

    static let css = #"""
        :root { --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --accent: #0b57d0; --danger: #b3261e;
          --ok: #146c2e; --warn: #7a4d00; --paper: #ffffff; --tint: #f3f5f9; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 100%; color: var(--ink);
          background: var(--paper); line-height: 1.5; -webkit-text-size-adjust: 100%; }
        body { margin: 0; overflow-wrap: anywhere; }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: 1rem; background: var(--paper); padding: .5rem; z-index: 1; }
        header.site { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
          border-bottom: 1px solid var(--line); background: var(--tint); }
        .brand { font-weight: 700; font-size: 1.25rem; text-decoration: none; color: var(--ink); }
        nav { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; flex: 1; }
        nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
        nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
        .sign-out { display: flex; gap: .5rem; align-items: center; margin-left: auto; }
        .who { color: var(--muted); font-size: .875rem; }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.75rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.25rem; }
        .card { border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 0 0 1.5rem; max-width: 40rem; }
        .field { margin: 0 0 1rem; }
        label { display: block; font-weight: 600; margin-bottom: .25rem; }
        .optional, .hint, .detail { color: var(--muted); font-weight: 400; font-size: .875rem; }
        input[type="text"], input[type="email"], input[type="password"], select { width: 100%; max-width: 28rem;
          font: inherit; padding: .5rem; border: 1px solid #767676; border-radius: .25rem; }
        input[aria-invalid="true"], select[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
        button, .button { font: inherit; padding: .5rem 1rem; border-radius: .25rem; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
        button.danger { background: var(--paper); color: var(--danger); border-color: var(--danger); }
        .sign-out button { background: var(--paper); color: var(--accent); padding: .25rem .75rem; flex: none;
          white-space: nowrap; }
        .field-error, .form-error { color: var(--danger); font-weight: 600; margin: .25rem 0 0; }
        .field-error ul { margin: .25rem 0 0; padding-left: 1.25rem; font-weight: 400; }
        .form-error { border-left: 4px solid var(--danger); padding: .5rem .75rem; background: #fdf0ef; }
        .notice { border-left: 4px solid var(--ok); padding: .5rem .75rem; background: #eef7f0; }
        .status strong { font-size: 1.25rem; }
        .status-active strong { color: var(--ok); }
        .status-error strong { color: var(--danger); }
        .status-pending strong, .status-enrolled strong { color: var(--warn); }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        .facts dt { font-weight: 600; }
        .facts dd { margin: 0; min-width: 0; }
        code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
        .invitation img { display: block; width: 100%; max-width: 296px; height: auto; image-rendering: pixelated;
          margin: 0 0 1rem; }
        table { border-collapse: collapse; width: 100%; }
        caption { text-align: left; color: var(--muted); padding: .25rem 0; }
        th, td { text-align: left; vertical-align: top; padding: .5rem; border-bottom: 1px solid var(--line); }
        td form { margin: 0; }
        td.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
        .passkey-actions form { margin: 0 0 .5rem; }
        .passkey-rename { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; }
        .passkey-rename label { flex-basis: 100%; margin: 0; font-size: .875rem; }
        .passkey-rename input[type="text"] { flex: 1 1 10rem; width: auto; min-width: 0; }
        .passkey-status:not(:empty) { border-left: 4px solid var(--accent); padding: .5rem .75rem;
          background: var(--tint); }
        .passkey-status.is-error { border-left-color: var(--danger); background: #fdf0ef; color: var(--danger);
          font-weight: 600; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
          white-space: nowrap; }
        footer.site { max-width: 60rem; margin: 2rem auto 0; padding: 1rem; color: var(--muted); font-size: .875rem; }
        @media (max-width: 40rem) {
          .facts { grid-template-columns: 1fr; }
          .facts dd { margin-bottom: .5rem; }
          thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table, caption, tbody, tr, td { display: block; width: 100%; }
          tr { border: 1px solid var(--line); border-radius: .5rem; margin-bottom: .75rem; padding: .25rem; }
          td { border: 0; padding: .25rem .5rem; }
          td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
          header.site { flex-direction: column; align-items: flex-start; }
          nav { flex-direction: column; align-items: flex-start; }
          .sign-out { margin-left: 0; }
        }
        """#
}
