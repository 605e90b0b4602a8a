# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0

# Runs one package's tests for scripts/test under a watchdog (sourced, not executed).
#
#   run_tests LIMIT_SECONDS TEST_BUNDLE   (VettIDPackageTests or VettIDServerPackageTests, in .build/debug: both
#                                         packages build into the one scratch directory .build)
#
# Runs the package's built test bundle the way `swift test --skip-build` does (Swift Testing; the project has no
# XCTest tests), without re-evaluating the manifest.
# - The test process writes to a file, never to a pipe: a helper process a test leaks (a nats-server, an
#   openssl) cannot hold the script's output open and stall it after the tests ended.
# - The output is streamed line by line (no 4 KiB block buffering), without the per-test "started"/"passed"
#   lines.
# - Whatever the run leaves running when it ends is listed and killed.
# - Past LIMIT_SECONDS the run is stopped with a report of the tests still running and every thread's stack
#   (gdb), instead of a silent hang until CI's own limit; the tests then run once more, and a second hang (or
#   any failure) fails the command.
# - Adds the number of tests Swift Testing ran to $total_tests; a run of no test is an error.

run_tests() {
  local status=0
  run_tests_attempt "$@" || status=$?
  if [ "$status" -eq 124 ]; then
    echo "warning: the tests of $2 hung (report above); running them once more, a second hang fails the command" >&2
    status=0
    run_tests_attempt "$@" || status=$?
  fi
  return "$status"
}

run_tests_attempt() {
  local limit=$1 bundle=$2
  local log events status count pid waited=0 hung=no before bin
  bin=".build/debug/$bundle.xctest"
  [ -e "$bin" ] || { echo "error: no test bundle $bin (build with --build-tests first)" >&2; return 1; }
  log=$(mktemp)
  events=$(mktemp)
  before=$(ps -e -o pid= | tr -d ' ' | sort)
  # What `swift test --skip-build` runs, plus the event stream the hang report reads.
  NO_COLOR=1 setsid "$bin" --testing-library swift-testing \
    --event-stream-output-path "$events" --event-stream-version 0 >"$log" 2>&1 &
  pid=$!
  tail -n +1 -f --pid="$pid" "$log" | python3 -u scripts/lib/test_output_filter.py &
  local streamer=$!
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$limit" ]; then
      run_tests_report_hang "$pid" "$events" "$limit"
      kill -KILL "$pid" 2>/dev/null || true
      hung=yes
      break
    fi
    sleep 2
    waited=$((waited + 2))
  done
  set +e
  wait "$pid"
  status=$?
  wait "$streamer" 2>/dev/null
  set -e
  [ "$hung" = no ] || status=124
  run_tests_reap "$before"
  count=$(grep -oE "Test run with [0-9]+ tests?" "$log" | tail -n 1 | grep -oE "[0-9]+" || true)
  rm -f "$log" "$events"
  if [ "$status" -eq 0 ] && [ "${count:-0}" -eq 0 ]; then
    echo "error: the tests of $bundle ran no test" >&2
    return 1
  fi
  total_tests=$((total_tests + ${count:-0}))
  return "$status"
}

# Lists and kills the helpers the run left behind: test processes and the programs tests start (nats-server,
# vettid, openssl, zbarimg) that did not exist before it and are now orphans. Foundation's Process puts each child
# into a session of its own, so the run's process group does not hold them.
run_tests_reap() {
  local before=$1 pid ppid comm args left=""
  while read -r pid ppid comm args; do
    [ "$ppid" = 1 ] || continue
    case "$comm" in nats-server | vettid | vettid-server | openssl | zbarimg | *PackageTests*) ;; *) continue ;; esac
    grep -qx "$pid" <<<"$before" && continue
    left+="  $pid $args"$'\n'
    kill -KILL "$pid" 2>/dev/null || true
  done < <(ps -e -o pid=,ppid=,comm=,args=)
  if [ -n "$left" ]; then
    echo "warning: processes the tests left running (killed now):" >&2
    printf '%s' "$left" >&2
  fi
}

# Which tests started and never finished, and where every thread of the test process is.
run_tests_report_hang() {
  local pid=$1 events=$2 limit=$3
  echo "error: the tests did not finish within $limit s; tests still running:" >&2
  python3 - "$events" >&2 <<'PY'
import json, sys
running = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    payload = record.get("payload", {})
    if record.get("kind") != "event":
        continue
    if payload.get("kind") == "testStarted":
        running[payload.get("testID")] = payload.get("instant", {}).get("since1970", 0)
    elif payload.get("kind") in ("testEnded", "testSkipped"):
        running.pop(payload.get("testID"), None)
tests = [t for t in running if "/" in t] or list(running)
print("\n".join("  " + t for t in tests) or "  (none: the process hangs outside a test)")
PY
  echo "== threads of the test process $pid:" >&2
  timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 25" 2>/dev/null |
    grep -E "^Thread|^#" | cut -c1-240 | head -400 >&2 || true
}
