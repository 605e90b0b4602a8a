// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// nats.c peer for scripts/bench-nats: the same workloads and output format as NATSBench.
//   pub <size> <msgs> <ms> <msgs/s> | pubsub … | reqrep <count> <p50 µs> <p99 µs>
// Usage: bench <url> <msgs> <requests> [all|pub128|pubsub|reqrep]   (one workload for scripts/bench-nats's rounds)
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t now_us(void) { return nats_NowInNanoSeconds() / 1000; }

static void check(natsStatus s, const char *what) {
    if (s != NATS_OK) { fprintf(stderr, "%s: %s\n", what, natsStatus_GetText(s)); exit(1); }
}

static int cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int received = 0;
static int received_target = 0;
static int64_t first_us = 0, last_us = 0;

static void on_message(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure) {
    (void)nc; (void)sub; (void)closure;
    if (received == 0) first_us = now_us();
    if (received + 1 == received_target) last_us = now_us();
    natsMsg_Destroy(msg);
    __atomic_store_n(&received, received + 1, __ATOMIC_RELEASE);
}

static void responder(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure) {
    (void)sub; (void)closure;
    natsConnection_Publish(nc, natsMsg_GetReply(msg), natsMsg_GetData(msg), natsMsg_GetDataLength(msg));
    natsMsg_Destroy(msg);
}

int main(int argc, char **argv) {
    const char *url = argc > 1 ? argv[1] : "nats://127.0.0.1:4222";
    int count = argc > 2 ? atoi(argv[2]) : 1000000;
    int requests = argc > 3 ? atoi(argv[3]) : 10000;
    const char *only = argc > 4 ? argv[4] : "all";
    int all = strcmp(only, "all") == 0;
    int sizes[] = {16, 128, 1024};
    natsConnection *nc = NULL;
    char *payload = malloc(1024);
    memset(payload, 'x', 1024);

    for (int s = 0; s < 3; s++) {
        if (!all && !(strcmp(only, "pub128") == 0 && sizes[s] == 128)) continue;
        check(natsConnection_ConnectTo(&nc, url), "connect");
        int64_t start = now_us();
        for (int i = 0; i < count; i++) check(natsConnection_Publish(nc, "bench.pub", payload, sizes[s]), "publish");
        check(natsConnection_FlushTimeout(nc, 120000), "flush");
        double seconds = (now_us() - start) / 1e6;
        printf("pub %d %d %.1f %d\n", sizes[s], count, seconds * 1000, (int)(count / seconds));
        fflush(stdout);
        natsConnection_Destroy(nc);
    }

    if (all || strcmp(only, "pubsub") == 0) {
        natsConnection *sc = NULL;
        natsSubscription *sub = NULL;
        check(natsConnection_ConnectTo(&sc, url), "connect sub");
        received_target = count;
        check(natsConnection_Subscribe(&sub, sc, "bench.pubsub", on_message, NULL), "subscribe");
        check(natsSubscription_SetPendingLimits(sub, -1, -1), "limits");
        check(natsConnection_Flush(sc), "flush sub");
        check(natsConnection_ConnectTo(&nc, url), "connect pub");
        for (int i = 0; i < count; i++) check(natsConnection_Publish(nc, "bench.pubsub", payload, 128), "publish");
        check(natsConnection_FlushTimeout(nc, 120000), "flush");
        while (__atomic_load_n(&received, __ATOMIC_ACQUIRE) < count) nats_Sleep(1);
        double seconds = (last_us - first_us) / 1e6;
        printf("pubsub 128 %d %.1f %d\n", count, seconds * 1000, (int)(count / seconds));
        fflush(stdout);
        natsSubscription_Destroy(sub);
        natsConnection_Destroy(sc);
        natsConnection_Destroy(nc);
    }

    if (all || strcmp(only, "reqrep") == 0) {
        natsConnection *rc = NULL;
        natsSubscription *sub = NULL;
        check(natsConnection_ConnectTo(&rc, url), "connect responder");
        check(natsConnection_Subscribe(&sub, rc, "bench.req", responder, NULL), "subscribe");
        check(natsConnection_Flush(rc), "flush responder");
        check(natsConnection_ConnectTo(&nc, url), "connect requester");
        int64_t *lat = malloc(sizeof(int64_t) * requests);
        for (int i = 0; i < 100; i++) {
            natsMsg *reply = NULL;
            check(natsConnection_Request(&reply, nc, "bench.req", payload, 128, 5000), "warm-up");
            natsMsg_Destroy(reply);
        }
        for (int i = 0; i < requests; i++) {
            natsMsg *reply = NULL;
            int64_t start = nats_NowInNanoSeconds();
            check(natsConnection_Request(&reply, nc, "bench.req", payload, 128, 5000), "request");
            lat[i] = nats_NowInNanoSeconds() - start;
            natsMsg_Destroy(reply);
        }
        qsort(lat, requests, sizeof(int64_t), cmp);
        int p99 = requests * 99 / 100;
        if (p99 >= requests) p99 = requests - 1;
        printf("reqrep %d %.1f %.1f\n", requests, lat[requests / 2] / 1000.0, lat[p99] / 1000.0);
        natsSubscription_Destroy(sub);
        natsConnection_Destroy(rc);
        natsConnection_Destroy(nc);
    }
    nats_Close();
    return 0;
}
