# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0

"""Schemathesis hooks for VettID: a member session bound to a device key, and a fresh DPoP proof per request.

The auth provider registers a member, signs in with DPoP (RFC 9449: the first proof is answered 400
use_dpop_nonce with a DPoP-Nonce; the retry carries it), and then, for every generated request, writes
`Authorization: DPoP <access token>` and a new proof over the request's method and URL with `ath` and the
newest server nonce. Operations that need another credential (enrollment, vault session, Gate token) are still
exercised: their refusals must match the spec.
"""

import base64
import hashlib
import json
import os
import secrets
import threading
import time
import uuid

import requests
import schemathesis
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

BASE_URL = os.environ["VETTID_SCHEMATHESIS_URL"].rstrip("/")
PASSWORD = "Schemathesis-Walrus-Canoe-77"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Device:
    """A P-256 device key that signs DPoP proofs, and the newest server nonce."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        numbers = self.key.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
                    "y": b64url(numbers.y.to_bytes(32, "big"))}
        self.nonce = None
        self.lock = threading.Lock()

    def proof(self, method: str, url: str, token: str | None = None) -> str:
        header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}
        claims = {"jti": str(uuid.uuid4()), "htm": method.upper(), "htu": url.split("?")[0], "iat": int(time.time())}
        if token is not None:
            claims["ath"] = b64url(hashlib.sha256(token.encode()).digest())
        with self.lock:
            if self.nonce is not None:
                claims["nonce"] = self.nonce
        signing_input = (b64url(json.dumps(header, separators=(",", ":")).encode()) + "."
                         + b64url(json.dumps(claims, separators=(",", ":")).encode()))
        r, s = decode_dss_signature(self.key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))

    def remember(self, response) -> None:
        nonce = response.headers.get("DPoP-Nonce")
        if nonce:
            with self.lock:
                self.nonce = nonce


DEVICE = Device()


def sign_in() -> str:
    """Registers a fresh member and signs in with DPoP; returns the DPoP-bound access token."""
    email = f"st-{secrets.token_hex(6)}@example.com"
    body = {"email": email, "password": PASSWORD}
    registered = requests.post(f"{BASE_URL}/auth/register", json=body, timeout=30)
    registered.raise_for_status()
    for _ in range(2):
        response = requests.post(f"{BASE_URL}/auth/login", json=body, timeout=30,
                                 headers={"DPoP": DEVICE.proof("POST", f"{BASE_URL}/auth/login")})
        DEVICE.remember(response)
        if response.status_code == 200:
            tokens = response.json()
            assert tokens["token_type"] == "DPoP", tokens
            return tokens["access_token"]
    raise RuntimeError(f"DPoP login failed: {response.status_code} {response.text}")


def gate_token() -> str:
    """A Gate access token for the device key through the development grant (DPoP-bound)."""
    body = {"grant_type": "urn:vettid:params:grant-type:development",
            "development_token": os.environ["VETTID_SCHEMATHESIS_DEV_TOKEN"]}
    for _ in range(2):
        response = requests.post(f"{BASE_URL}/token", json=body, timeout=30,
                                 headers={"DPoP": DEVICE.proof("POST", f"{BASE_URL}/token")})
        DEVICE.remember(response)
        if response.status_code == 200:
            return response.json()["access_token"]
    raise RuntimeError(f"Gate token failed: {response.status_code} {response.text}")


@schemathesis.auth(refresh_interval=240)
class DPoPAuth:
    """The member session for the API, the Gate token for `/proxy/…`; a fresh proof for every request."""

    def get(self, case, ctx):
        return {"member": sign_in(), "gate": gate_token()}

    def set(self, case, tokens, ctx):
        token = tokens["gate"] if case.path.startswith("/proxy/") else tokens["member"]
        url = BASE_URL + case.formatted_path
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"DPoP {token}"
        case.headers["DPoP"] = DEVICE.proof(case.method, url, token)


@schemathesis.hook
def map_path_parameters(ctx, path_parameters):
    """Proxied requests go to the configured upstream (an echo server) most of the time."""
    if path_parameters and "upstream" in path_parameters and secrets.randbelow(4) != 0:
        path_parameters["upstream"] = "self"
    return path_parameters


@schemathesis.hook
def after_call(ctx, case, response):
    DEVICE.remember(response)
