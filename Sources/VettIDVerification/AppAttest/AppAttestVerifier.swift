// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import SwiftASN1
public import VettIDAttestation
public import VettIDCore
import X509

// Server-side verification of App Attest attestations and assertions (Apple's documented steps).

/// Verifies App Attest attestation objects and assertions.
///
/// Attestation runs Apple's nine steps, each refusal with its own `AppAttestError.Code`:
/// 1. `x5c` chains to a configured root under ``Configuration/chainPolicy``;
/// 2. `clientDataHash` (an explicit input, see `AppAttestClientDataHash`) is appended to `authData`;
/// 3. `nonce = SHA-256(authData ‖ clientDataHash)`;
/// 4. the credential certificate's extension 1.2.840.113635.100.8.2 holds that nonce;
/// 5. SHA-256 of the certificate's uncompressed public key is the key id;
/// 6. `rpIdHash` is SHA-256 of the app id;
/// 7. the counter is 0;
/// 8. the aaguid is an allowed environment's;
/// 9. the credential id is the key id.
///
/// Challenge freshness and single use are the caller's job (it derives `clientDataHash` from a challenge
/// it issued and consumes it).
public struct AppAttestVerifier: Sendable {
    /// The settings.
    public let configuration: Configuration

    /// Creates a verifier.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Verifies an attestation object from `DCAppAttestService.attestKey`.
    /// - Parameters:
    ///   - attestationObject: the CBOR attestation object.
    ///   - keyID: the 32-byte key id the app reported (base64-decoded).
    ///   - clientDataHash: the hash the app passed to `attestKey`, recomputed from the server challenge.
    public func verifyAttestation(
        _ attestationObject: [UInt8],
        keyID: [UInt8],
        clientDataHash: AppAttestClientDataHash
    ) async throws(AppAttestError) -> AttestedKey {
        let object: CBORValue
        do throws(CBORReader.Failure) {
            object = try CBORReader.decodeSingle(attestationObject)
        } catch {
            throw AppAttestError(.malformedAttestation, error.reason)
        }
        guard let format = object[textKey: "fmt"]?.textValue, let statement = object[textKey: "attStmt"],
            let authDataBytes = object[textKey: "authData"]?.bytesValue,
            let x5c = statement[textKey: "x5c"]?.arrayValue, !x5c.isEmpty,
            let receipt = statement[textKey: "receipt"]?.bytesValue
        else { throw AppAttestError(.malformedAttestation, "missing fmt, attStmt.x5c, attStmt.receipt or authData") }
        guard format == "apple-appattest" else {
            throw AppAttestError(.unsupportedFormat, "fmt is not apple-appattest")
        }

        let certificates: [Certificate]
        do {
            certificates = try x5c.map { item in
                guard let der = item.bytesValue else {
                    throw AppAttestError(.malformedCertificate, "x5c holds a non-bytes item")
                }
                return try Certificate(derEncoded: der)
            }
        } catch {
            throw AppAttestError(.malformedCertificate, "a certificate in x5c does not parse")
        }
        let credentialCertificate = certificates[0]

        // 1. Chain to a trusted root.
        var verifier = Verifier(rootCertificates: CertificateStore(configuration.trustedRoots)) {
            configuration.chainPolicy
        }
        let result = await verifier.validate(
            leaf: credentialCertificate, intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = result else {
            throw AppAttestError(
                .untrustedCertificateChain, "the certificate chain does not validate to a trusted root")
        }

        // 2-4. Nonce.
        let nonce = Array(SHA256.hash(data: authDataBytes + clientDataHash.bytes))
        guard let nonceExtension = credentialCertificate.extensions[oid: AppAttestNonceExtension.oid],
            let certifiedNonce = try? AppAttestNonceExtension.nonce(fromExtensionValue: nonceExtension.value)
        else { throw AppAttestError(.missingNonceExtension, "the credential certificate has no nonce extension") }
        guard certifiedNonce == nonce else {
            throw AppAttestError(.nonceMismatch, "the certified nonce does not match")
        }

        // 5. Key id.
        guard let publicKey = P256.Signing.PublicKey(credentialCertificate.publicKey) else {
            throw AppAttestError(.malformedCertificate, "the credential key is not P-256")
        }
        guard Array(SHA256.hash(data: publicKey.x963Representation)) == keyID else {
            throw AppAttestError(.keyIDMismatch, "the credential key does not hash to the key id")
        }

        // 6. App id.
        let authData = try AuthenticatorData(bytes: authDataBytes)
        guard authData.rpIDHash == Array(SHA256.hash(data: Array(configuration.appID.utf8))) else {
            throw AppAttestError(.appIDMismatch, "rpIdHash is not the hash of the app id")
        }

        // 7. Counter.
        guard authData.counter == 0 else { throw AppAttestError(.nonZeroCounter, "the attestation counter is not 0") }

        // 8. Environment.
        guard let aaguid = authData.aaguid, let credentialID = authData.credentialID else {
            throw AppAttestError(.malformedAuthenticatorData, "authenticator data has no attested credential data")
        }
        guard let environment = configuration.allowedEnvironments.first(where: { $0.aaguid == aaguid }) else {
            throw AppAttestError(.environmentNotAllowed, "the aaguid is not an allowed environment")
        }

        // 9. Credential id.
        guard credentialID == keyID else {
            throw AppAttestError(.credentialIDMismatch, "the credential id is not the key id")
        }

        return AttestedKey(keyID: keyID, publicKey: publicKey, environment: environment, receipt: receipt, counter: 0)
    }

    /// Verifies an assertion from `DCAppAttestService.generateAssertion`.
    /// - Parameters:
    ///   - assertion: the CBOR assertion `{signature, authenticatorData}`.
    ///   - clientData: the exact client data whose SHA-256 the app signed (the request body with the challenge).
    ///   - publicKey: the key stored at attestation.
    ///   - storedCounter: the counter stored for the key.
    /// - Returns: the new counter. Store it with compare-and-set against `storedCounter`, so two requests
    ///   racing with the same assertion cannot both succeed.
    public func verifyAssertion(
        _ assertion: [UInt8],
        clientData: [UInt8],
        publicKey: P256.Signing.PublicKey,
        storedCounter: UInt32
    ) throws(AppAttestError) -> UInt32 {
        let object: CBORValue
        do throws(CBORReader.Failure) {
            object = try CBORReader.decodeSingle(assertion)
        } catch {
            throw AppAttestError(.malformedAssertion, error.reason)
        }
        guard let signatureBytes = object[textKey: "signature"]?.bytesValue,
            let authenticatorData = object[textKey: "authenticatorData"]?.bytesValue
        else { throw AppAttestError(.malformedAssertion, "missing signature or authenticatorData") }

        // 1-3. The signature is over nonce = SHA-256(authenticatorData ‖ SHA-256(clientData)).
        let nonce = Array(SHA256.hash(data: authenticatorData + Array(SHA256.hash(data: clientData))))
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: nonce)
        else { throw AppAttestError(.invalidAssertionSignature, "the assertion signature does not verify") }

        // 4. App id. Parsed as assertion data: header, then at most an extension map (iOS 27).
        let authData = try AssertionAuthenticatorData(bytes: authenticatorData)
        guard authData.rpIDHash == Array(SHA256.hash(data: Array(configuration.appID.utf8))) else {
            throw AppAttestError(.appIDMismatch, "rpIdHash is not the hash of the app id")
        }

        // 5. Strictly increasing counter.
        guard authData.counter > storedCounter else {
            throw AppAttestError(.counterNotIncreased, "the counter did not increase")
        }
        return authData.counter
    }
}
