#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""Verifies a passkey registration and the authentications after it with py_webauthn (PyPI `webauthn`), an
implementation independent of this project's relying party: the interop check of the SDK's software authenticator
(Tests/VettIDClientTests/Passkeys/SoftwarePasskeyInteropTests.swift).

Reads one JSON object from standard input: `rp_id`, `origin`, `registration_challenge` (base64url), `registration`
(RegistrationResponseJSON), `authentications` (a list of {`challenge`, `credential`: AuthenticationResponseJSON}).
Prints one JSON object: `credential_id`, `sign_count` after registration, `sign_counts` of the authentications.
Exits 1 with the library's message when any verification fails.
"""

import json
import sys

from webauthn import base64url_to_bytes, verify_authentication_response, verify_registration_response


def main() -> int:
    request = json.load(sys.stdin)
    try:
        registered = verify_registration_response(
            credential=request["registration"],
            expected_challenge=base64url_to_bytes(request["registration_challenge"]),
            expected_rp_id=request["rp_id"],
            expected_origin=request["origin"],
        )
        counts = []
        count = registered.sign_count
        for step in request["authentications"]:
            verified = verify_authentication_response(
                credential=step["credential"],
                expected_challenge=base64url_to_bytes(step["challenge"]),
                expected_rp_id=request["rp_id"],
                expected_origin=request["origin"],
                credential_public_key=registered.credential_public_key,
                credential_current_sign_count=count,
            )
            count = verified.new_sign_count
            counts.append(count)
    except Exception as error:  # the library raises its own exception types; any of them is a refusal
        print(f"py_webauthn refused: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(json.dumps({
        "credential_id": registered.credential_id.hex(),
        "sign_count": registered.sign_count,
        "sign_counts": counts,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
