// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation

/// The portal's one script, for passkeys (docs/portal.md, "The passkey script and the CSP"), served at a path that
/// carries a hash of its text (so it may be cached for a year and a new version is a new URL). Only the pages that
/// run a WebAuthn ceremony load it, and only they get a Content-Security-Policy with `script-src 'self'`
/// (``PortalSecurityHeaders``); it never builds markup from text (it sets `textContent` and form values only), and
/// Trusted Types enforcement keeps it that way.
///
/// It asks a portal route for the ceremony's options (a same-origin `POST` of the form's CSRF token), converts
/// them from base64url itself when the browser has no `parseCreationOptionsFromJSON`, calls
/// `navigator.credentials.create`/`get`, and posts the result in a hidden field of a normal form, so the server
/// sets cookies and redirects as for any other form. Without it the pages still work: the passkey controls stay
/// hidden (`hidden`, removed by the script) and the password form signs in.
enum PortalPasskeyScript {
    /// `/portal/static/passkeys-<first 16 hex digits of the SHA-256 of the source>.js`.
    static let path: String = {
        let digest = SHA256.hash(data: Data(source.utf8))
        return "/portal/static/passkeys-" + digest.prefix(8).map { String(format: "%02x", $0) }.joined() + ".js"
    }()

    static let source = #"""
        // SPDX-FileCopyrightText: 2026 The VettID Authors
        // SPDX-License-Identifier: Apache-2.0
        // The portal's one script (docs/portal.md, "The passkey script and the CSP"): WebAuthn ceremonies, nothing
        // else. It asks a portal route for the options (a same-origin POST with the form's CSRF token), runs
        // navigator.credentials.create/get, and posts the result as a normal form, so the server answers exactly as
        // for any other form. Without it the pages still work: the passkey controls stay hidden and the password form
        // signs in.
        "use strict";
        (() => {
          const status = document.getElementById("passkey-status");

          function say(text, isError) {
            if (!status) return;
            status.textContent = text;
            status.classList.toggle("is-error", Boolean(isError));
          }

          function supported() {
            return typeof window.PublicKeyCredential === "function" && Boolean(navigator.credentials)
              && typeof navigator.credentials.create === "function" && typeof navigator.credentials.get === "function";
          }

          // base64url (RFC 4648 §5, no padding) <-> ArrayBuffer.
          function encode(buffer) {
            let text = "";
            for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
            return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          }

          function decode(text) {
            const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
            const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
            const bytes = new Uint8Array(binary.length);
            for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
            return bytes.buffer;
          }

          function descriptors(list) {
            return (list || []).map((item) => Object.assign({}, item, { id: decode(item.id) }));
          }

          function creationOptions(json) {
            if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
              return PublicKeyCredential.parseCreationOptionsFromJSON(json);
            }
            return Object.assign({}, json, {
              challenge: decode(json.challenge),
              user: Object.assign({}, json.user, { id: decode(json.user.id) }),
              excludeCredentials: descriptors(json.excludeCredentials),
            });
          }

          function requestOptions(json) {
            if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
              return PublicKeyCredential.parseRequestOptionsFromJSON(json);
            }
            return Object.assign({}, json, {
              challenge: decode(json.challenge),
              allowCredentials: descriptors(json.allowCredentials),
            });
          }

          // WebAuthn's RegistrationResponseJSON or AuthenticationResponseJSON, as the server reads them.
          function responseJSON(credential) {
            const response = credential.response;
            const json = {
              id: credential.id,
              rawId: encode(credential.rawId),
              type: credential.type,
              clientExtensionResults: credential.getClientExtensionResults(),
              response: { clientDataJSON: encode(response.clientDataJSON) },
            };
            if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
            if (response.attestationObject) {
              json.response.attestationObject = encode(response.attestationObject);
              if (typeof response.getTransports === "function") json.response.transports = response.getTransports();
            } else {
              json.response.authenticatorData = encode(response.authenticatorData);
              json.response.signature = encode(response.signature);
              if (response.userHandle) json.response.userHandle = encode(response.userHandle);
            }
            return JSON.stringify(json);
          }

          // A failure of the portal's route, with the words for it.
          class RouteError extends Error {}

          async function fetchOptions(path, form, fields) {
            let response;
            try {
              response = await fetch(path, {
                method: "POST",
                body: new URLSearchParams(Object.assign({ csrf: form.elements.csrf.value }, fields)),
                credentials: "same-origin",
                redirect: "manual",
                headers: { Accept: "application/json" },
              });
            } catch (error) {
              throw new RouteError("The server could not be reached. Check the connection and try again.");
            }
            if (response.type === "opaqueredirect") throw new RouteError("You are signed out. Reload the page and sign in.");
            if (response.status === 403) throw new RouteError("This page has expired. Reload it and try again.");
            if (response.status === 429) throw new RouteError("Too many attempts. Wait a minute and try again.");
            const type = response.headers.get("Content-Type") || "";
            if (!response.ok || !type.startsWith("application/json")) {
              throw new RouteError("The server could not start the passkey request. Reload the page and try again.");
            }
            return response.json();
          }

          function describe(error, adding) {
            if (error instanceof RouteError) return error.message;
            switch (error && error.name) {
              case "NotAllowedError":
                return adding
                  ? "No passkey was created: the request was cancelled or timed out. Try again when you are ready."
                  : "No passkey was used: the request was cancelled, timed out, or this device has no passkey for this site. "
                    + "Try again, or sign in with your password.";
              case "InvalidStateError":
                return "This device already has a passkey for your account. Give it a name below, or use another device.";
              case "SecurityError":
                return "Passkeys do not work at this address. Open the portal at the address you usually use "
                  + "(for a server on this computer: http://localhost with its port).";
              case "NotSupportedError":
                return "This browser or device cannot use passkeys of this kind.";
              default:
                return "The passkey request failed. Try again.";
            }
          }

          function setUpSignIn(form) {
            const button = document.getElementById("passkey-sign-in-button");
            if (!button || !supported()) return;
            document.getElementById("passkey-sign-in").hidden = false;
            let pending = null; // the conditional (autofill) request: { controller, settled }

            // With an email typed, the button asks for that account's passkeys (security keys and authenticators that
            // cannot verify their user need the list); otherwise, and for autofill, for any passkey of this site.
            async function signIn(mediation, signal) {
              const email = document.getElementById("email");
              const fields = !mediation && email && email.value.trim() ? { email: email.value.trim() } : {};
              const options = requestOptions(await fetchOptions("/portal/passkeys/sign-in/options", form, fields));
              const request = { publicKey: options, signal };
              if (mediation) request.mediation = mediation;
              const credential = await navigator.credentials.get(request);
              if (!credential) throw Object.assign(new Error("no credential"), { name: "NotAllowedError" });
              form.elements.credential.value = responseJSON(credential);
              say("Signing in…", false);
              form.submit();
            }

            async function startConditional() {
              const available = typeof PublicKeyCredential.isConditionalMediationAvailable === "function"
                && await PublicKeyCredential.isConditionalMediationAvailable().catch(() => false);
              if (!available) return;
              const controller = new AbortController();
              // Autofill offers the passkeys quietly; an error here (aborted, refused) is left to the button.
              const settled = signIn("conditional", controller.signal).catch(() => {});
              pending = { controller, settled };
            }

            button.addEventListener("click", async () => {
              button.disabled = true;
              say("Waiting for your passkey…", false);
              try {
                if (pending) {
                  pending.controller.abort();
                  await pending.settled;
                  pending = null;
                }
                await signIn(null, undefined);
              } catch (error) {
                say(describe(error, false), true);
                button.disabled = false;
              }
            });
            startConditional();
          }

          function setUpAdd(form) {
            const needsScript = document.getElementById("passkey-needs-script");
            if (!supported()) {
              if (needsScript) needsScript.textContent = "This browser cannot create passkeys. Renaming and removing work.";
              return;
            }
            if (needsScript) needsScript.hidden = true;
            form.hidden = false;
            const button = form.querySelector("button[type=submit]");
            form.addEventListener("submit", async (event) => {
              event.preventDefault();
              button.disabled = true;
              say("Follow your browser's prompt to create the passkey…", false);
              try {
                const options = creationOptions(await fetchOptions("/portal/passkeys/options", form, {}));
                const credential = await navigator.credentials.create({ publicKey: options });
                if (!credential) throw Object.assign(new Error("no credential"), { name: "NotAllowedError" });
                form.elements.credential.value = responseJSON(credential);
                say("Saving the passkey…", false);
                form.submit();
              } catch (error) {
                say(describe(error, true), true);
                button.disabled = false;
              }
            });
          }

          const signInForm = document.getElementById("passkey-sign-in-form");
          if (signInForm) setUpSignIn(signInForm);
          const addForm = document.getElementById("passkey-add-form");
          if (addForm) setUpAdd(addForm);
        })();
        """#
}
