#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""A second JetStream client for the Swift integration tests: nats-py (PyPI nats-py, installed by scripts/setup-system).

    nats_py_peer.py fetch URL STREAM DURABLE COUNT     pull COUNT messages from a durable consumer and ack each
                                                       (acks the server confirms); one JSON line per message
    nats_py_peer.py publish URL SUBJECT COUNT PREFIX   publish COUNT messages with a Nats-Msg-Id, each twice (the second
                                                       a duplicate); one JSON line per PubAck

Payloads travel as base64 in the JSON lines, headers as an object. Exits 1 with the reason on stderr when something
fails or does not arrive within 60 s.
"""
import asyncio
import base64
import json
import sys

import nats

DEADLINE = 60.0


def line(value):
    print(json.dumps(value, sort_keys=True), flush=True)


async def fetch(nc, stream, durable, count):
    js = nc.jetstream(timeout=15)
    subscription = await js.pull_subscribe_bind(durable, stream)
    received = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while received < count:
        if loop.time() > deadline:
            raise TimeoutError(f"{received} of {count} messages within {DEADLINE} s")
        try:
            messages = await subscription.fetch(count - received, timeout=5)
        except nats.errors.TimeoutError:
            continue
        for message in messages:
            metadata = message.metadata
            line({
                "subject": message.subject,
                "payload": base64.b64encode(message.data).decode(),
                "headers": dict(message.headers or {}),
                "stream_sequence": metadata.sequence.stream,
                "consumer_sequence": metadata.sequence.consumer,
                "delivered": metadata.num_delivered,
            })
            await message.ack_sync(timeout=15)
            received += 1


async def publish(nc, subject, count, prefix):
    js = nc.jetstream(timeout=15)
    for index in range(1, count + 1):
        headers = {"Nats-Msg-Id": f"{prefix}-{index}", "Origin": "nats-py", "Index": str(index)}
        payload = f"{prefix} {index} \u00e9t\u00e9".encode()
        for _ in range(2):
            ack = await js.publish(subject, payload, headers=headers)
            line({"stream": ack.stream, "sequence": ack.seq, "duplicate": bool(ack.duplicate)})


async def main(arguments):
    command, url = arguments[0], arguments[1]
    nc = await nats.connect(url, name="nats-py-peer", allow_reconnect=False)
    try:
        if command == "fetch":
            await fetch(nc, arguments[2], arguments[3], int(arguments[4]))
        elif command == "publish":
            await publish(nc, arguments[2], int(arguments[3]), arguments[4])
        else:
            raise ValueError(f"unknown command {command}")
    finally:
        await nc.close()


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1:]))
    except Exception as error:  # the reason goes to the test's failure message
        print(f"nats_py_peer: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
