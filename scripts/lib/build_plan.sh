# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/build and scripts/fuzz: drops a SwiftPM build plan that a new or removed source file made
# stale.
#
# SwiftPM plans again when a file of the plan's own package changes, but not when a package it depends on by path
# (the SDK, for the server, the benchmarks and the fuzzers) gains, loses or renames a source file: the old plan
# then builds without the new file, or fails on the missing one. Adding, removing or renaming a file changes its
# directory's modification time, so a source directory newer than the plan means the plan is stale.

# Removes the plan file $1 (and SwiftPM's description of it, beside it) when a source directory of the repository
# at $2 changed after it was written.
drop_plan_if_stale() {
  local plan=$1 root=$2 directory
  [ -f "$plan" ] || return 0
  for directory in "$root/Sources" "$root/Tests" "$root/Server/Sources" "$root/Server/Tests" \
    "$root/Benchmarks/Sources" "$root/Fuzz/Sources"; do
    [ -d "$directory" ] || continue
    if [ -n "$(find "$directory" -type d -newer "$plan" -print -quit)" ]; then
      rm -f "$plan" "${plan%.yaml}/description.json"
      return 0
    fi
  done
}
