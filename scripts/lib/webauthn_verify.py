#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""Verifies a passkey registration, and optionally the authentications after it, with py_webauthn (PyPI `webauthn`,
which scripts/setup-system installs into `python3`): a relying party independent of this project's. Used by
scripts/portal-browser-test (a browser's registration, against the options the portal sent) and by
Tests/VettIDClientTests/Passkeys/SoftwarePasskeyInteropTests.swift (the SDK's software authenticator).

Reads one JSON object from standard input:
    options                    PublicKeyCredentialCreationOptionsJSON (`challenge`, `rp.id`, `pubKeyCredParams`)
    origin                     the expected origin
    credential                 RegistrationResponseJSON
    require_user_verification  optional, default false
    authentications            optional list of {`challenge`, `credential`: AuthenticationResponseJSON}
Prints one JSON object: `credential_id` (base64url), `user_verified`, `backup_eligible`, `backed_up`, `format`,
`sign_count` after registration and `sign_counts` of the authentications. Exits 1 with the library's message when
any verification fails.
"""

import json
import sys

from webauthn import base64url_to_bytes, verify_authentication_response, verify_registration_response
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.cose import COSEAlgorithmIdentifier


def main() -> int:
    given = json.load(sys.stdin)
    options = given["options"]
    rp_id = options["rp"]["id"]
    try:
        registered = verify_registration_response(
            credential=given["credential"],
            expected_challenge=base64url_to_bytes(options["challenge"]),
            expected_rp_id=rp_id,
            expected_origin=given["origin"],
            require_user_verification=given.get("require_user_verification", False),
            supported_pub_key_algs=[COSEAlgorithmIdentifier(p["alg"]) for p in options["pubKeyCredParams"]],
        )
        counts = []
        count = registered.sign_count
        for step in given.get("authentications", []):
            verified = verify_authentication_response(
                credential=step["credential"],
                expected_challenge=base64url_to_bytes(step["challenge"]),
                expected_rp_id=rp_id,
                expected_origin=given["origin"],
                credential_public_key=registered.credential_public_key,
                credential_current_sign_count=count,
            )
            count = verified.new_sign_count
            counts.append(count)
    except Exception as error:  # the library's own exceptions say which check failed
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(json.dumps({
        "credential_id": bytes_to_base64url(registered.credential_id),
        "user_verified": registered.user_verified,
        "backup_eligible": registered.credential_device_type == "multi_device",
        "backed_up": registered.credential_backed_up,
        "format": str(registered.fmt.value if hasattr(registered.fmt, "value") else registered.fmt),
        "sign_count": registered.sign_count,
        "sign_counts": counts,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
