// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import HTTPTypes
import Logging
import VettIDClient

/// `vettid gate`: the Gate proxy, through the SDK's `GateClient`.
public struct GateCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Call upstream APIs through the Gate proxy with a device-bound (DPoP) token.",
        subcommands: [GateRequestCommand.self]
    )

    public init() {}
}
