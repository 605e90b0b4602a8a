// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
public import Logging
import VettIDAttestation
import VettIDCore
public import VettIDCrypto
import VettIDVerification

/// The Gate's token side: attestation challenges, App Attest key registration, and minting DPoP-bound Gate
/// tokens from an App Attest assertion or a development token.
///
/// Every check maps to its own API code (docs/security.md, "Gate"). Challenges are single use and consumed
/// atomically; the assertion counter advances by compare-and-set; the DPoP key of the proof must be the key
/// the attestation is bound to (`clientDataHash = SHA-256(challenge ‖ jkt)`).
public struct GateService: Sendable {
    /// A minted Gate token.
    public struct Issued: Sendable {
        /// The access token.
        public let accessToken: String
        /// Seconds until it expires.
        public let expiresIn: Int
    }

    /// A registered key.
    public struct Registered: Sendable {
        /// Standard base64 of the key id.
        public let keyID: String
        /// `production`, `development` or `software`.
        public let environment: String
    }

    let configuration: GateConfiguration
    let challenges: AttestationChallengeRepository
    let attestedKeys: AttestedKeyRepository
    /// Verifies Gate tokens (the proxy uses it).
    public let tokens: GateTokenService
    let clock: any WallClock
    /// App Attest (Apple and trusted software roots) and development tokens.
    let attestation: DeviceAttestationVerifier

    init(
        configuration: GateConfiguration, store: any SQLStore, signingKeys: TokenSigningKeys, issuer: String,
        clock: any WallClock
    ) {
        self.configuration = configuration
        self.challenges = AttestationChallengeRepository(store: store)
        self.attestedKeys = AttestedKeyRepository(store: store)
        self.clock = clock
        self.tokens = GateTokenService(keys: signingKeys, issuer: issuer, lifetime: configuration.tokenLifetime)
        self.attestation = DeviceAttestationVerifier(configuration: configuration)
    }

    // MARK: Challenges

    /// Purposes a challenge is issued for.
    enum Purpose: String, Sendable {
        /// Key registration (`attestKey`).
        case attest
        /// Token minting (`generateAssertion`).
        case assert
    }

    /// Issues a single-use challenge: base64url of 32 random bytes, and its lifetime in seconds.
    func issueChallenge(purpose: Purpose) async throws -> (challenge: String, expiresIn: Int) {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let lifetime = Int(configuration.challengeLifetime.components.seconds)
        let now = UnixSeconds.from(clock.now())
        try await challenges.insert(bytes, purpose: purpose.rawValue, now: now, expiresAt: now + Int64(lifetime))
        return (Base64URL.encode(bytes), lifetime)
    }

    private func consumeChallenge(_ text: String, purpose: Purpose) async throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text), bytes.count == 32 else {
            throw APIFailure.gate(.badRequest, .challengeUnknown, "the challenge is not one this server issued")
        }
        switch try await challenges.consume(bytes, purpose: purpose.rawValue, now: UnixSeconds.from(clock.now())) {
        case .consumed: return bytes
        case .unknown:
            throw APIFailure.gate(.badRequest, .challengeUnknown, "the challenge is not one this server issued")
        case .used: throw APIFailure.gate(.gone, .challengeUsed, "the challenge was already used")
        case .expired: throw APIFailure.gate(.gone, .challengeExpired, "the challenge expired")
        case .wrongPurpose:
            throw APIFailure.gate(
                .badRequest, .challengeWrongPurpose,
                "the challenge was issued for another purpose than \(purpose.rawValue)")
        }
    }

    // MARK: Registration

    /// Verifies an App Attest attestation bound to the challenge and the device key, and stores the key.
    /// - Parameters:
    ///   - keyID: the App Attest key id, standard base64 of 32 bytes.
    ///   - attestationObject: the attestation object, standard base64.
    ///   - challenge: an unused `attest` challenge this server issued; consumed here.
    ///   - deviceKey: the device's DPoP public key; the attestation's `clientDataHash` is
    ///     `SHA-256(challenge ‖ jkt)` of this key.
    ///   - proofJKT: the thumbprint of the verified DPoP proof's key, which must be `deviceKey`'s.
    ///   - logger: where refusals are logged.
    public func register(
        keyID: String, attestationObject: String, challenge: String, deviceKey: P256PublicJWK, proofJKT: String,
        logger: Logger
    ) async throws -> Registered {
        guard attestation.apple != nil else {
            throw APIFailure.gate(.serviceUnavailable, .attestationNotConfigured, "App Attest is not configured")
        }
        guard deviceKey.thumbprint == proofJKT else {
            throw APIFailure.gate(.badRequest, .deviceKeyMismatch, "the DPoP proof is not signed by device_key_jwk")
        }
        guard let keyIDBytes = Data(base64Encoded: keyID).map(Array.init), keyIDBytes.count == 32 else {
            throw APIFailure.invalidRequest("key_id must be standard base64 of 32 bytes")
        }
        guard let object = Data(base64Encoded: attestationObject).map(Array.init), !object.isEmpty else {
            throw APIFailure.invalidRequest("attestation_object must be standard base64")
        }
        let challengeBytes = try await consumeChallenge(challenge, purpose: .attest)
        guard let jktBytes = Base64URL.decode(proofJKT),
            let clientDataHash = AppAttestClientDataHash.binding(challenge: challengeBytes, keyThumbprint: jktBytes)
        else { throw APIFailure.invalidRequest("the device key thumbprint is malformed") }

        let attested: AttestedKey
        let environment: String
        do throws(AppAttestError) {
            (attested, environment) = try await attestation.verifyUnderAnyTrustedRoot(
                object, keyID: keyIDBytes, clientDataHash: clientDataHash)
        } catch {
            throw DeviceAttestationVerifier.failure(for: error, logger: logger)
        }
        // Stored in canonical base64 so every spelling of the same 32 bytes is one key.
        let canonicalKeyID = Data(keyIDBytes).base64EncodedString()
        let inserted = try await attestedKeys.insert(
            keyID: canonicalKeyID, publicKey: attested.publicKey, environment: environment, receipt: attested.receipt,
            deviceJKT: proofJKT, now: UnixSeconds.from(clock.now())
        )
        guard inserted else {
            throw APIFailure.gate(.conflict, .attestationKeyExists, "this key id is already registered")
        }
        logger.info("attested key registered", metadata: ["environment": .string(environment)])
        return Registered(keyID: canonicalKeyID, environment: environment)
    }

    // MARK: Tokens

    /// The app-attest grant: an assertion over `SHA-256(challenge ‖ jkt)` by the registered key bound to the
    /// proof's key, with a counter above the stored one (advanced by compare-and-set).
    public func mintWithAssertion(
        keyID: String, challenge: String, assertion: String, proofJKT: String, logger: Logger
    ) async throws -> Issued {
        guard let appleVerifier = attestation.apple else {
            throw APIFailure.gate(.badRequest, .unsupportedGrantType, "the app-attest grant is not configured")
        }
        guard let assertionBytes = Data(base64Encoded: assertion).map(Array.init), !assertionBytes.isEmpty else {
            throw APIFailure.invalidRequest("assertion must be standard base64")
        }
        guard let keyIDBytes = Data(base64Encoded: keyID), keyIDBytes.count == 32 else {
            throw APIFailure.invalidRequest("key_id must be standard base64 of 32 bytes")
        }
        let canonicalKeyID = keyIDBytes.base64EncodedString()
        let challengeBytes = try await consumeChallenge(challenge, purpose: .assert)
        guard let key = try await attestedKeys.find(keyID: canonicalKeyID) else {
            throw APIFailure.gate(.unauthorized, .attestationKeyUnknown, "no key is registered under this key id")
        }
        guard key.deviceJKT == proofJKT, let jktBytes = Base64URL.decode(proofJKT) else {
            throw APIFailure.gate(
                .unauthorized, .deviceKeyMismatch, "the DPoP proof is not by the device key this key was attested with")
        }
        let counter: UInt32
        do throws(AppAttestError) {
            counter = try appleVerifier.verifyAssertion(
                assertionBytes, clientData: challengeBytes + jktBytes, publicKey: key.publicKey,
                storedCounter: key.counter)
        } catch {
            logger.notice("assertion refused", metadata: ["attestation_error": .string(error.code.rawValue)])
            if error.code == .counterNotIncreased {
                throw APIFailure.gate(
                    .unauthorized, .assertionCounterReplayed, "the assertion counter did not increase")
            }
            throw APIFailure.gate(
                .unauthorized, .assertionInvalid, "the assertion was refused (\(error.code.rawValue))")
        }
        guard
            try await attestedKeys.advanceCounter(
                keyID: canonicalKeyID, to: counter, now: UnixSeconds.from(clock.now()))
        else {
            throw APIFailure.gate(.unauthorized, .assertionCounterReplayed, "the assertion counter did not increase")
        }
        let token = try await tokens.issue(
            subject: "appattest:" + canonicalKeyID, boundJKT: proofJKT, environment: key.environment, now: clock.now())
        return Issued(accessToken: token, expiresIn: tokens.expiresIn)
    }

    /// The development grant: `token` must be one of the configured development tokens.
    public func mintWithDevelopmentToken(_ token: String, proofJKT: String) async throws -> Issued {
        guard attestation.acceptsDevelopmentTokens else {
            throw APIFailure.gate(.badRequest, .unsupportedGrantType, "the development grant is disabled")
        }
        guard attestation.acceptsDevelopmentToken(token) else {
            throw APIFailure(.badRequest, .invalidGrant, "the development token is not accepted")
        }
        let access = try await tokens.issue(
            subject: "development", boundJKT: proofJKT, environment: "development-token", now: clock.now())
        return Issued(accessToken: access, expiresIn: tokens.expiresIn)
    }
}
