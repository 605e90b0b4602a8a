// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import VettIDCLI

@main
extension VettIDCommand {}
