// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// nats.go peer for scripts/bench-jetstream: the same JetStream workloads and output format as JetStreamBench,
// through the legacy JetStream API (nc.JetStream()).
//
//	<workload> <msgs> <ms> <msgs/s>
//
// Workloads (128-byte payloads, a file-storage stream JSBENCH on jsbench.> created fresh for each):
//
//	js-pub-sync   js.Publish, one at a time, each waiting for its PubAck
//	js-pub-async  js.PublishAsync with at most <window> PubAcks outstanding, then PublishAsyncComplete
//	js-fetch-<B>  <msgs> stored first (untimed); a durable pull consumer with explicit acks; sub.Fetch of
//	              batches of B, msg.Ack (+ACK, not waiting) of each, until all are consumed
//
// Usage: bench-js <url> <workload> <msgs> [window|batch]
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

const stream = "JSBENCH"
const subject = "jsbench.msg"

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

func report(workload string, count int, start time.Time) {
	seconds := time.Since(start).Seconds()
	fmt.Printf("%s %d %.1f %d\n", workload, count, seconds*1000, int(float64(count)/seconds))
}

func publishAsync(js nats.JetStreamContext, payload []byte, count int) {
	for i := 0; i < count; i++ {
		_, err := js.PublishAsync(subject, payload)
		must(err, "publish async")
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(120 * time.Second):
		must(fmt.Errorf("timed out"), "publish async complete")
	}
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: bench-js <url> <workload> <msgs> [window|batch]")
		os.Exit(2)
	}
	url, workload := os.Args[1], os.Args[2]
	count, _ := strconv.Atoi(os.Args[3])
	parameter := 0
	if len(os.Args) > 4 {
		parameter, _ = strconv.Atoi(os.Args[4])
	}
	payload := make([]byte, 128)
	for i := range payload {
		payload[i] = 'x'
	}
	nc, err := nats.Connect(url)
	must(err, "connect")
	window := 256
	if workload == "js-pub-async" && parameter > 0 {
		window = parameter
	}
	var failed int64
	js, err := nc.JetStream(
		nats.PublishAsyncMaxPending(window),
		nats.PublishAsyncErrHandler(func(_ nats.JetStream, _ *nats.Msg, err error) {
			fmt.Fprintln(os.Stderr, "publish async:", err)
			atomic.AddInt64(&failed, 1)
		}),
	)
	must(err, "jetstream")
	_ = js.DeleteStream(stream) // absent is fine
	_, err = js.AddStream(&nats.StreamConfig{
		Name: stream, Subjects: []string{"jsbench.>"}, Storage: nats.FileStorage, Replicas: 1,
	})
	must(err, "add stream")

	switch {
	case workload == "js-pub-sync":
		start := time.Now()
		for i := 0; i < count; i++ {
			_, err := js.Publish(subject, payload)
			must(err, "publish")
		}
		report(workload, count, start)
	case workload == "js-pub-async":
		start := time.Now()
		publishAsync(js, payload, count)
		report(workload, count, start)
	case strings.HasPrefix(workload, "js-fetch"):
		batch := 100
		if parameter > 0 {
			batch = parameter
		}
		publishAsync(js, payload, count)
		_, err := js.AddConsumer(stream, &nats.ConsumerConfig{Durable: "BENCH", AckPolicy: nats.AckExplicitPolicy})
		must(err, "add consumer")
		sub, err := js.PullSubscribe(subject, "BENCH", nats.Bind(stream, "BENCH"))
		must(err, "pull subscribe")
		start := time.Now()
		received := 0
		for received < count {
			messages, err := sub.Fetch(batch, nats.MaxWait(5*time.Second))
			must(err, "fetch")
			for _, message := range messages {
				must(message.Ack(), "ack")
			}
			received += len(messages)
		}
		report(workload, count, start)
		must(sub.Unsubscribe(), "unsubscribe")
	default:
		fmt.Fprintln(os.Stderr, "unknown workload", workload)
		os.Exit(2)
	}
	if atomic.LoadInt64(&failed) > 0 {
		fmt.Fprintf(os.Stderr, "%d publishes failed\n", failed)
		os.Exit(1)
	}
	_ = js.DeleteStream(stream)
	nc.Close()
}
