// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// nats.c peer for scripts/bench-jetstream: the same JetStream workloads and output format as JetStreamBench.
//   <workload> <msgs> <ms> <msgs/s>
// Workloads (128-byte payloads, a file-storage stream JSBENCH on jsbench.> created fresh for each):
//   js-pub-sync     js_Publish, one at a time, each waiting for its PubAck
//   js-pub-async    js_PublishAsync with at most <window> PubAcks outstanding, then js_PublishAsyncComplete
//   js-fetch-<B>    <msgs> stored first (untimed); a durable pull consumer with explicit acks; natsSubscription_Fetch
//                   of batches of B, natsMsg_Ack (+ACK, not waiting) of each, until all are consumed
// Usage: bench-js <url> <workload> <msgs> [window|batch]
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM "JSBENCH"
#define SUBJECT "jsbench.msg"

static void check(natsStatus s, jsErrCode jerr, const char *what) {
    if (s != NATS_OK) {
        fprintf(stderr, "%s: %s (err_code %d)\n", what, natsStatus_GetText(s), (int)jerr);
        nats_PrintLastErrorStack(stderr);
        exit(1);
    }
}

static int64_t now_ns(void) { return nats_NowInNanoSeconds(); }

static void report(const char *workload, int count, int64_t start) {
    double seconds = (now_ns() - start) / 1e9;
    printf("%s %d %.1f %d\n", workload, count, seconds * 1000, (int)(count / seconds));
    fflush(stdout);
}

static void fresh_stream(jsCtx *js) {
    jsErrCode jerr = 0;
    js_DeleteStream(js, STREAM, NULL, &jerr);  // absent is fine
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    const char *subjects[] = {"jsbench.>"};
    config.Name = STREAM;
    config.Subjects = subjects;
    config.SubjectsLen = 1;
    config.Storage = js_FileStorage;
    config.Replicas = 1;
    jsStreamInfo *info = NULL;
    check(js_AddStream(&info, js, &config, NULL, &jerr), jerr, "add stream");
    jsStreamInfo_Destroy(info);
}

static void publish_async(jsCtx *js, const char *payload, int count) {
    jsErrCode jerr = 0;
    for (int i = 0; i < count; i++) check(js_PublishAsync(js, SUBJECT, payload, 128, NULL), jerr, "publish async");
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = 120000;
    check(js_PublishAsyncComplete(js, &options), jerr, "publish async complete");
}

static int failed_acks = 0;

static void on_pub_ack_error(jsCtx *js, jsPubAckErr *err, void *closure) {
    (void)js; (void)closure;
    fprintf(stderr, "publish async: %s\n", err->ErrText ? err->ErrText : natsStatus_GetText(err->Err));
    __atomic_add_fetch(&failed_acks, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench-js <url> <workload> <msgs> [window|batch]\n");
        return 2;
    }
    const char *url = argv[1];
    const char *workload = argv[2];
    int count = atoi(argv[3]);
    int parameter = argc > 4 ? atoi(argv[4]) : 0;
    char payload[128];
    memset(payload, 'x', sizeof payload);
    natsConnection *nc = NULL;
    jsCtx *js = NULL;
    jsErrCode jerr = 0;
    check(natsConnection_ConnectTo(&nc, url), 0, "connect");
    jsOptions options;
    jsOptions_Init(&options);
    options.PublishAsync.MaxPending = strcmp(workload, "js-pub-async") == 0 && parameter > 0 ? parameter : 256;
    options.PublishAsync.StallWait = 60000;  // wait for room rather than fail on a slow VM
    options.PublishAsync.ErrHandler = on_pub_ack_error;
    check(natsConnection_JetStream(&js, nc, &options), 0, "jetstream");
    fresh_stream(js);

    if (strcmp(workload, "js-pub-sync") == 0) {
        int64_t start = now_ns();
        for (int i = 0; i < count; i++) {
            jsPubAck *ack = NULL;
            check(js_Publish(&ack, js, SUBJECT, payload, 128, NULL, &jerr), jerr, "publish");
            jsPubAck_Destroy(ack);
        }
        report(workload, count, start);
    } else if (strcmp(workload, "js-pub-async") == 0) {
        int64_t start = now_ns();
        publish_async(js, payload, count);
        report(workload, count, start);
    } else if (strncmp(workload, "js-fetch", 8) == 0) {
        int batch = parameter > 0 ? parameter : 100;
        publish_async(js, payload, count);
        jsConsumerConfig consumer;
        jsConsumerConfig_Init(&consumer);
        consumer.Durable = "BENCH";
        consumer.AckPolicy = js_AckExplicit;
        jsConsumerInfo *info = NULL;
        check(js_AddConsumer(&info, js, STREAM, &consumer, NULL, &jerr), jerr, "add consumer");
        jsConsumerInfo_Destroy(info);
        jsSubOptions subOptions;
        jsSubOptions_Init(&subOptions);
        subOptions.Stream = STREAM;
        subOptions.Consumer = "BENCH";
        natsSubscription *sub = NULL;
        check(js_PullSubscribe(&sub, js, SUBJECT, "BENCH", NULL, &subOptions, &jerr), jerr, "pull subscribe");
        int64_t start = now_ns();
        int received = 0;
        while (received < count) {
            natsMsgList list = {0};
            check(natsSubscription_Fetch(&list, sub, batch, 5000, &jerr), jerr, "fetch");
            for (int i = 0; i < list.Count; i++) check(natsMsg_Ack(list.Msgs[i], NULL), 0, "ack");
            received += list.Count;
            natsMsgList_Destroy(&list);
        }
        report(workload, count, start);
        natsSubscription_Destroy(sub);
    } else {
        fprintf(stderr, "unknown workload %s\n", workload);
        return 2;
    }
    if (__atomic_load_n(&failed_acks, __ATOMIC_RELAXED) > 0) {
        fprintf(stderr, "%d publishes failed\n", failed_acks);
        return 1;
    }
    js_DeleteStream(js, STREAM, NULL, &jerr);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    nats_Close();
    return 0;
}
