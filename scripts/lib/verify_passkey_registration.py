# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""Verifies one passkey registration independently of the server, with py_webauthn (PyPI `webauthn`, which
scripts/setup-system installs into `python3`): scripts/portal-browser-test runs it with the options the portal
answered and the RegistrationResponseJSON its script posted.

    python3 scripts/lib/verify_passkey_registration.py < {"options": {...}, "credential": {...}, "origin": "...",
                                                          "require_user_verification": true}

Prints one JSON line: the credential id, whether the user was verified, the backup flags, the format; exits 1 with
the library's message when the registration does not verify.
"""

import json
import sys

from webauthn import base64url_to_bytes, verify_registration_response
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.cose import COSEAlgorithmIdentifier


def main():
    given = json.load(sys.stdin)
    options = given["options"]
    try:
        verified = verify_registration_response(
            credential=given["credential"],
            expected_challenge=base64url_to_bytes(options["challenge"]),
            expected_rp_id=options["rp"]["id"],
            expected_origin=given["origin"],
            require_user_verification=given["require_user_verification"],
            supported_pub_key_algs=[COSEAlgorithmIdentifier(p["alg"]) for p in options["pubKeyCredParams"]],
        )
    except Exception as error:  # the library's own exceptions say which check failed
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(json.dumps({
        "credential_id": bytes_to_base64url(verified.credential_id),
        "user_verified": verified.user_verified,
        "backup_eligible": verified.credential_device_type == "multi_device",
        "backed_up": verified.credential_backed_up,
        "format": str(verified.fmt.value if hasattr(verified.fmt, "value") else verified.fmt),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
