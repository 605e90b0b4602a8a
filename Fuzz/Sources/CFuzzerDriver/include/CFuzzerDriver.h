// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer's documented entry point for a program that provides its own main (SwiftPM renames an
// executable's main on Linux, so the fuzzer calls the driver from there).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
