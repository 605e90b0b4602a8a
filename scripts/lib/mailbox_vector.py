#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""Prints the mailbox test vector of docs/protocol.md 7.5 from fixed keys.

An HPKE base mode (RFC 9180; DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305) written here on Python's
`cryptography` primitives, independent of swift-crypto's, and first checked against RFC 9180 A.2.1
(../shared/fixtures/hpke/). The vault draws a fresh ephemeral key for every message; only a harness like this one
fixes it.

    python3 scripts/lib/mailbox_vector.py [path/to/shared]
"""
import hashlib
import hmac
import json
import struct
import sys

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives import serialization

RAW = serialization.Encoding.Raw
PUB = serialization.PublicFormat.Raw
PRIV = serialization.PrivateFormat.Raw
NOENC = serialization.NoEncryption()


def extract(salt, ikm):
    return hmac.new(salt or b"\0" * 32, ikm, hashlib.sha256).digest()


def expand(prk, info, length):
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


KEM_SUITE = b"KEM" + struct.pack(">H", 0x0020)
HPKE_SUITE = b"HPKE" + struct.pack(">HHH", 0x0020, 0x0001, 0x0003)


def labeled_extract(suite, salt, label, ikm):
    return extract(salt, b"HPKE-v1" + suite + label + ikm)


def labeled_expand(suite, prk, label, info, length):
    return expand(prk, struct.pack(">H", length) + b"HPKE-v1" + suite + label + info, length)


def pub(sk):
    return sk.public_key().public_bytes(RAW, PUB)


def seal(pk_r, sk_e, info, aad, plaintext):
    """Single-shot HPKE base-mode seal with a fixed ephemeral key; returns enc, shared secret, key, nonce, ct."""
    enc = pub(sk_e)
    dh = sk_e.exchange(X25519PublicKey.from_public_bytes(pk_r))
    eae_prk = labeled_extract(KEM_SUITE, b"", b"eae_prk", dh)
    shared = labeled_expand(KEM_SUITE, eae_prk, b"shared_secret", enc + pk_r, 32)
    psk_id_hash = labeled_extract(HPKE_SUITE, b"", b"psk_id_hash", b"")
    info_hash = labeled_extract(HPKE_SUITE, b"", b"info_hash", info)
    context = b"\0" + psk_id_hash + info_hash
    secret = labeled_extract(HPKE_SUITE, shared, b"secret", b"")
    key = labeled_expand(HPKE_SUITE, secret, b"key", context, 32)
    nonce = labeled_expand(HPKE_SUITE, secret, b"base_nonce", context, 12)
    return enc, shared, key, nonce, ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)


def check_rfc9180(shared_dir):
    with open(f"{shared_dir}/fixtures/hpke/rfc9180-x25519-sha256-chacha20poly1305.json") as f:
        v = json.load(f)["vectors"][0]
    sk_e = X25519PrivateKey.from_private_bytes(bytes.fromhex(v["skEm"]))
    first = v["encryptions"][0]
    enc, shared, key, nonce, ct = seal(
        bytes.fromhex(v["pkRm"]), sk_e, bytes.fromhex(v["info"]), bytes.fromhex(first["aad"]),
        bytes.fromhex(first["pt"]))
    assert enc.hex() == v["enc"] and shared.hex() == v["shared_secret"], "RFC 9180 KEM mismatch"
    assert key.hex() == v["key"] and nonce.hex() == v["base_nonce"], "RFC 9180 key schedule mismatch"
    assert ct.hex() == first["ct"], "RFC 9180 ciphertext mismatch"


def lp(b):
    return struct.pack(">H", len(b)) + b


def b64u(b):
    import base64
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def main():
    shared_dir = sys.argv[1] if len(sys.argv) > 1 else "../shared"
    check_rfc9180(shared_dir)
    sk_r = X25519PrivateKey.from_private_bytes(bytes(range(0xC0, 0xE0)))
    sk_e = X25519PrivateKey.from_private_bytes(bytes(range(0xE0, 0x100)))
    guid = "3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f"
    jkt = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
    subject = f"OwnerSpace.{guid}.forApp.mailbox.{jkt}"
    notice_id = "mn_" + b64u(bytes(range(0x10, 0x20)))
    msg_id = f"{notice_id}:{jkt}"
    info = lp(b"vettid-mailbox/v1") + lp(subject.encode())
    plaintext = json.dumps({
        "id": notice_id, "type": "security_event", "sent_at": 1764374400123,
        "body": {"kind": "login", "occurred_at": 1764374400000, "client": "vettid-cli/1.0", "ip": "127.0.0.1"},
    }, separators=(",", ":"), sort_keys=True).encode()
    enc, shared, key, nonce, ct = seal(pub(sk_r), sk_e, info, msg_id.encode(), plaintext)
    body = b"\x01" + enc + ct
    print(f"recipient private key = {bytes(range(0xC0, 0xE0)).hex()}")
    print(f"mailbox_key (public)  = b64u {b64u(pub(sk_r))}")
    print(f"ephemeral private key = {bytes(range(0xE0, 0x100)).hex()}")
    print(f"subject               = {subject}")
    print(f"Nats-Msg-Id (aad)     = {msg_id}")
    print(f"info ({len(info)} bytes)      = {info.hex()}")
    print(f"plaintext             = {plaintext.decode()}")
    print(f"enc                   = {enc.hex()}")
    print(f"shared_secret         = {shared.hex()}")
    print(f"key                   = {key.hex()}")
    print(f"base_nonce            = {nonce.hex()}")
    print(f"body ({len(body)} bytes)     = {body.hex()}")


if __name__ == "__main__":
    main()
