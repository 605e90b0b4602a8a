// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The shared definitions this module's API is written in (error codes and the coded-error protocol, the wall
// clock, the password policy, the LAT) come with it: an app that imports this module names them without a
// second import, as it did when they were declared here.
@_exported public import VettIDCore
