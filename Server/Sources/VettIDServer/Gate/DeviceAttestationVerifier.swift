// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import HTTPTypes
import Logging
import VettIDAttestation
import VettIDCore
import VettIDVerification

/// The device attestation checks shared by the Gate and vault enrollment: App Attest under Apple's root,
/// App Attest-format objects under configured software roots (only when trusted), and development tokens.
///
/// Built once from the ``GateConfiguration`` (app id, environments, software roots, development tokens).
struct DeviceAttestationVerifier: Sendable {
    /// Trusts Apple's root only; `nil` without an app id.
    let apple: AppAttestVerifier?
    /// Trusts the configured software roots only; `nil` unless `trustSoftwareRoot` is set and roots exist.
    let software: AppAttestVerifier?
    private let developmentTokenHashes: [[UInt8]]

    init(configuration: GateConfiguration) {
        if let appID = configuration.appID {
            apple = AppAttestVerifier(
                configuration: .init(appID: appID, allowedEnvironments: configuration.allowedEnvironments))
            software =
                configuration.trustSoftwareRoot && !configuration.softwareRoots.isEmpty
                ? AppAttestVerifier(
                    configuration: .init(
                        appID: appID, allowedEnvironments: configuration.allowedEnvironments,
                        trustedRoots: configuration.softwareRoots))
                : nil
        } else {
            apple = nil
            software = nil
        }
        developmentTokenHashes = configuration.developmentTokens.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    /// Whether the development grant / format is enabled.
    var acceptsDevelopmentTokens: Bool { !developmentTokenHashes.isEmpty }

    /// Whether any attestation at all can be verified.
    var canVerifyAnything: Bool { apple != nil || software != nil || acceptsDevelopmentTokens }

    /// Whether `token` is one of the configured development tokens. Every hash is compared in full, so timing
    /// says nothing about which token came close.
    func acceptsDevelopmentToken(_ token: String) -> Bool {
        let presented = Array(SHA256.hash(data: Array(token.utf8)))
        var matched = false
        for hash in developmentTokenHashes {
            var difference: UInt8 = 0
            for (a, b) in zip(hash, presented) { difference |= a ^ b }
            matched = matched || difference == 0
        }
        return matched
    }

    /// Verifies against Apple's root; when the chain is untrusted there and software roots are trusted, against
    /// those (the environment is then `software`).
    func verifyUnderAnyTrustedRoot(
        _ object: [UInt8], keyID: [UInt8], clientDataHash: AppAttestClientDataHash
    ) async throws(AppAttestError) -> (AttestedKey, environment: String) {
        guard let apple else { throw AppAttestError(.untrustedCertificateChain, "App Attest is not configured") }
        do throws(AppAttestError) {
            let key = try await apple.verifyAttestation(object, keyID: keyID, clientDataHash: clientDataHash)
            return (key, key.environment.name)
        } catch {
            guard error.code == .untrustedCertificateChain, let software else { throw error }
            let key = try await software.verifyAttestation(object, keyID: keyID, clientDataHash: clientDataHash)
            return (key, "software")
        }
    }

    /// The API failure for an attestation refusal: one code per check.
    static func failure(for error: AppAttestError, logger: Logger) -> APIFailure {
        logger.notice("attestation refused", metadata: ["attestation_error": .string(error.code.rawValue)])
        let code: APIFailure.Code
        switch error.code {
        case .untrustedCertificateChain: code = .attestationUntrustedRoot
        case .nonceMismatch, .missingNonceExtension: code = .attestationInvalidNonce
        case .appIDMismatch: code = .attestationWrongAppID
        case .keyIDMismatch, .credentialIDMismatch: code = .attestationWrongKeyID
        case .environmentNotAllowed: code = .attestationWrongEnvironment
        default: code = .attestationInvalid
        }
        return APIFailure.gate(.badRequest, code, "the attestation was refused (\(error.code.rawValue))")
    }
}
