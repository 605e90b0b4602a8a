# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0

"""Filters Swift Testing's console output for scripts/test, line by line as it arrives.

Drops what a passing run says about every test (started, passed, suite lines, run details) and keeps the rest:
failures with their details, skips, log lines, and the final "Test run with N tests" line. A message can span
several lines (a parameterized test case's arguments); lines that do not start a new message follow the decision
made for the line that did.
"""

import sys

SYMBOLS = ("◇", "↳", "✔", "✘", "➜", "⚠", "􀢄", "􀟈", "􁁛", "􀄣", "􀆅")
DROP_PREFIXES = ("◇", "↳", "✔ Test ", "✔ Suite ")
KEEP_PREFIXES = ("✔ Test run with ",)


def starts_message(line: str) -> bool:
    return line.startswith(SYMBOLS) or line[:4].isdigit()


def main() -> None:
    dropping = False
    for line in sys.stdin:
        if starts_message(line):
            dropping = line.startswith(DROP_PREFIXES) and not line.startswith(KEEP_PREFIXES)
        if not dropping:
            sys.stdout.write(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
