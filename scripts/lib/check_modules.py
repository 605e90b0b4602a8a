# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0

"""Reads `swift package dump-package` JSON on stdin (see scripts/check-modules); fails when
- an SDK product other than VettIDNats and NATSClient reaches NATSClient or SwiftNIO on iOS or macOS, or
- a product an app links reaches a server-only or development-only module (VettIDVerification: the DPoP and
  App Attest verifiers; VettIDSoftwareAttestation: the software attestation authority and attester;
  VettIDSoftwareAttestationClient: the SDK's DeviceAttester over it; VettIDTestSupport: helpers for the tests of both packages)."""
import json
import sys

package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
NIO_PACKAGES = {"swift-nio", "swift-nio-ssl", "swift-nio-transport-services", "async-http-client"}
# The NATS layer and what is built on it (its presentation and its SwiftUI line) may reach NIO.
ALLOWED = {"VettIDNats", "NATSClient", "VettIDNatsViewModels", "VettIDNatsUI"}
NOT_FOR_APPS = {
    "VettIDVerification",
    "VettIDSoftwareAttestation",
    "VettIDSoftwareAttestationClient",
    "VettIDTestSupport",
}


def reach(name, platform):
    """Local targets and external (package, product) pairs reached from target `name` on `platform`."""
    seen, external, stack = set(), set(), [name]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        for dependency in targets[current]["dependencies"]:
            kind, value = next(iter(dependency.items()))
            condition = value[-1] if isinstance(value, list) else None
            if condition and platform not in condition.get("platformNames", []):
                continue
            if kind == "product":
                external.add((value[1], value[0]))
            else:
                stack.append(value[0])
    return seen, external


failures = set()
for product in package["products"]:
    name = product["name"]
    if name in NOT_FOR_APPS or "library" not in product["type"]:
        continue
    for platform in ("ios", "macos", "linux"):
        for target in product["targets"]:
            local, external = reach(target, platform)
            for module in sorted(local & NOT_FOR_APPS):
                failures.add(f"{name} reaches the server-only or development-only module {module} on {platform}")
            if name in ALLOWED or platform == "linux":
                continue
            if "NATSClient" in local:
                failures.add(f"{name} reaches NATSClient on {platform}")
            for package_name, product_name in sorted(external):
                if package_name in NIO_PACKAGES:
                    failures.add(f"{name} reaches {package_name}/{product_name} on {platform}")
if failures:
    print("check-modules: FAILED\n  " + "\n  ".join(sorted(failures)), file=sys.stderr)
    sys.exit(1)
print(
    "check-modules: OK (only VettIDNats, NATSClient and the NATS UI layer reach NATSClient or NIO on iOS and macOS; no app product "
    "reaches VettIDVerification, VettIDSoftwareAttestation(Client) or VettIDTestSupport)"
)
