// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// nats.go peer for scripts/bench-nats: the same workloads and output format as NATSBench.
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	url := "nats://127.0.0.1:4222"
	count, requests := 1000000, 10000
	if len(os.Args) > 1 {
		url = os.Args[1]
	}
	if len(os.Args) > 2 {
		count, _ = strconv.Atoi(os.Args[2])
	}
	if len(os.Args) > 3 {
		requests, _ = strconv.Atoi(os.Args[3])
	}
	// A fourth argument "reqrep" runs only the request/reply workload (scripts/bench-nats's alternating rounds).
	only := "all"
	if len(os.Args) > 4 {
		only = os.Args[4]
	}
	payload := make([]byte, 1024)
	for i := range payload {
		payload[i] = 'x'
	}
	for _, size := range []int{16, 128, 1024} {
		if only != "all" {
			break
		}
		nc, err := nats.Connect(url)
		must(err)
		start := time.Now()
		for i := 0; i < count; i++ {
			must(nc.Publish("bench.pub", payload[:size]))
		}
		must(nc.FlushTimeout(120 * time.Second))
		seconds := time.Since(start).Seconds()
		fmt.Printf("pub %d %d %.1f %d\n", size, count, seconds*1000, int(float64(count)/seconds))
		nc.Close()
	}
	if only == "all" {
		sc, err := nats.Connect(url)
		must(err)
		done := make(chan struct{})
		received := 0
		var first time.Time
		sub, err := sc.Subscribe("bench.pubsub", func(m *nats.Msg) {
			if received == 0 {
				first = time.Now()
			}
			received++
			if received == count {
				close(done)
			}
		})
		must(err)
		must(sub.SetPendingLimits(-1, -1))
		must(sc.Flush())
		nc, err := nats.Connect(url)
		must(err)
		for i := 0; i < count; i++ {
			must(nc.Publish("bench.pubsub", payload[:128]))
		}
		must(nc.FlushTimeout(120 * time.Second))
		<-done
		seconds := time.Since(first).Seconds()
		fmt.Printf("pubsub 128 %d %.1f %d\n", count, seconds*1000, int(float64(count)/seconds))
		nc.Close()
		sc.Close()
	}
	{
		rc, err := nats.Connect(url)
		must(err)
		_, err = rc.Subscribe("bench.req", func(m *nats.Msg) { m.Respond(m.Data) })
		must(err)
		must(rc.Flush())
		nc, err := nats.Connect(url)
		must(err)
		for i := 0; i < 100; i++ {
			_, err := nc.Request("bench.req", payload[:128], 5*time.Second)
			must(err)
		}
		lat := make([]float64, requests)
		for i := 0; i < requests; i++ {
			start := time.Now()
			_, err := nc.Request("bench.req", payload[:128], 5*time.Second)
			must(err)
			lat[i] = float64(time.Since(start).Nanoseconds()) / 1000
		}
		sort.Float64s(lat)
		p99 := requests * 99 / 100
		if p99 >= requests {
			p99 = requests - 1
		}
		fmt.Printf("reqrep %d %.1f %.1f\n", requests, lat[requests/2], lat[p99])
		nc.Close()
		rc.Close()
	}
}
