// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// `vettid nats send`: one request to the vault, and its answer.
public struct NATSSendCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a request to the vault (a handler, a status or an event-types request).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Handler id to execute (e.g. echo, vault.info).")
    var handler: String?
    @Option(help: "JSON payload for the handler.")
    var payload: String = "null"
    @Flag(help: "Ask for the vault's status instead.")
    var status = false
    @Flag(name: .customLong("event-types"), help: "Ask for the handler catalogue instead.")
    var eventTypes = false

    public init() {}

    public func validate() throws {
        guard [handler != nil, status, eventTypes].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --handler, --status, --event-types")
        }
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            guard let payload = JSONValue.parse(Array(self.payload.utf8)) else {
                throw CLIFailure(code: "invalid_payload", message: "--payload is not JSON")
            }
            let manager = try await NATSCommand.manager(context, service: try await VaultCommand.service(context))
            try await NATSCommand.connect(manager)
            let id = UUID().uuidString.lowercased()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let message: VaultMessage =
                if let handler {
                    .executeHandler(id: id, handlerID: handler, payload: payload, timestamp: now)
                } else if status { .statusRequest(id: id, timestamp: now) } else {
                    .eventTypesRequest(id: id, timestamp: now)
                }
            let response = try await manager.ownerSpace().request(message)
            await manager.disconnect()
            context.output.emit(NATSCommand.human(response), jsonText: response.encoded())
            if !response.isSuccess { throw ExitCode(1) }
        }
    }
}
