// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import HTTPTypes
import Logging
import VettIDClient
import VettIDCore

/// `vettid gate request METHOD PATH [--data ...]`.
public struct GateRequestCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request through the Gate proxy, e.g. `vettid gate request GET /proxy/echo/hello`.",
        discussion: """
            The first call mints a Gate token with the development grant (the token comes from \
            --development-token or VETTID_GATE_DEVELOPMENT_TOKEN); the device key is kept in the profile's \
            encrypted store, so later calls prove the same device. The response body is printed as is.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The HTTP method (GET, POST, PUT, PATCH, DELETE, ...).") var method: String
    @Argument(help: "The path relative to the Gate, e.g. /proxy/<upstream>/<path>?query.") var path: String
    @Option(help: "The request body; @file reads it from a file, @- from standard input.") var data: String?
    @Option(name: .customLong("header"), help: "An extra header 'Name: value' (repeatable).") var headers: [String] = []
    @Option(help: "The Gate development token (default: $VETTID_GATE_DEVELOPMENT_TOKEN).") var developmentToken: String?
    @Option(help: "The Apple team id the Gate is configured for.") var teamID: String = "VETTIDDEV1"
    @Option(help: "The app's bundle id.") var bundleID: String = "dev.vettid.cli"

    public init() {}

    public func validate() throws {
        guard HTTPRequest.Method(method.uppercased()) != nil else {
            throw ValidationError("'\(method)' is not an HTTP method")
        }
        for header in headers where Self.parseHeader(header) == nil {
            throw ValidationError("--header must look like 'Name: value' (got '\(header)')")
        }
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let token = developmentToken ?? ProcessInfo.processInfo.environment["VETTID_GATE_DEVELOPMENT_TOKEN"]
            guard let token, !token.isEmpty else {
                throw CLIFailure(
                    code: "no_development_token",
                    message:
                        "pass --development-token or set VETTID_GATE_DEVELOPMENT_TOKEN (the Gate's development grant)"
                )
            }
            var logger = Logger(label: "vettid-gate") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .warning
            let configuration: GateClientConfiguration
            do throws(ConfigurationError) {
                configuration = try GateClientConfiguration(
                    baseURL: context.serverURL, teamID: teamID, bundleID: bundleID, logLevel: .warning, logger: logger)
            } catch {
                throw CLIFailure(code: error.code.rawValue, message: error.message)
            }
            let prefix = "profile.\(global.profile).gate"
            let gate = GateClient(
                configuration: configuration,
                deviceKeyStore: SoftwareDeviceKeyStore(store: context.store, storageKey: "\(prefix).device-key"),
                attester: DevelopmentTokenAttester(token: token),
                store: context.store,
                nonceStore: context.nonceStore
            )
            var fields = HTTPFields()
            for header in headers {
                if let (name, value) = Self.parseHeader(header) { fields.append(HTTPField(name: name, value: value)) }
            }
            let body = try readBody()
            if body != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
            do throws(GateError) {
                let response = try await gate.performProxyRequest(
                    path: path, method: HTTPRequest.Method(method.uppercased())!, body: body, additionalHeaders: fields)
                let text = String(decoding: response.body, as: UTF8.self)
                context.output.emit(
                    text,
                    json: Result(
                        status: response.status.code, body: text,
                        contentType: response.headerFields[.contentType] ?? "")
                )
            } catch {
                throw Self.failure(error)
            }
        }
    }

    private func readBody() throws -> Data? {
        guard let data else { return nil }
        if data == "@-" { return FileHandle.standardInput.readDataToEndOfFile() }
        if data.hasPrefix("@") {
            let url = URL(fileURLWithPath: String(data.dropFirst()))
            do { return try Data(contentsOf: url) } catch {
                throw CLIFailure(code: "unreadable_body", message: "cannot read \(url.path)")
            }
        }
        return Data(data.utf8)
    }

    static func parseHeader(_ text: String) -> (HTTPField.Name, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard let fieldName = HTTPField.Name(name) else { return nil }
        return (fieldName, value)
    }

    static func failure(_ error: GateError) -> CLIFailure {
        var message = error.message
        if let body = error.body, !body.isEmpty {
            message += "\n" + String(decoding: body.prefix(2048), as: UTF8.self)
        }
        return CLIFailure(code: error.serverCode?.rawValue ?? error.code.rawValue, message: message)
    }
}

extension GateRequestCommand {
    /// The `--output json` result: the upstream's answer.
    struct Result: Encodable {
        let status: Int
        let body: String
        let contentType: String
    }
}
