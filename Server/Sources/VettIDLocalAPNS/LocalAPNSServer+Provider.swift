// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
public import VettIDServer

extension LocalAPNSServer {
    /// A local APNs and the server configuration that pushes to it.
    public struct Pairing: Sendable {
        /// The running local APNs.
        public let server: LocalAPNSServer
        /// `apns_*` settings for it: a fresh key written as `AuthKey.p8`, its CA as `apns-ca.pem`, both
        /// environments pointing at it.
        public let configuration: APNSConfiguration
    }

    /// The key id and team id the pairing uses (ten characters each, as Apple's).
    public static let pairingKeyID = "LOCALKEY01"
    public static let pairingTeamID = "LOCALTEAM1"

    /// Starts a local APNs for `bundleIDs` with a fresh signing key, and writes the key and the CA into `directory`
    /// (created if needed) for the server's configuration.
    public static func paired(bundleIDs: Set<String>, directory: String) async throws -> Pairing {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = P256.Signing.PrivateKey()
        let server = try await LocalAPNSServer(
            publicKey: key.publicKey, keyID: pairingKeyID, teamID: pairingTeamID, topics: bundleIDs)
        let keyFile = directory + "/AuthKey.p8"
        try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let configuration = APNSConfiguration(
            keyFile: keyFile, keyID: pairingKeyID, teamID: pairingTeamID, bundleIDs: bundleIDs,
            productionURL: server.baseURL, sandboxURL: server.baseURL, caFile: try server.writeCA(to: directory))
        return Pairing(server: server, configuration: configuration)
    }
}
