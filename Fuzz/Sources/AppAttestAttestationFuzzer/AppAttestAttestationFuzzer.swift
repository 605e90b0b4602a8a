// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `appattest-attestation`: AppAttestVerifier.verifyAttestation (async), which decodes the
// CBOR attestation object, parses the x5c certificates, validates the chain and runs Apple's steps 2-9.
//
// The verifier trusts one software root (below, P-256, so a chain validates in microseconds) at a fixed
// time, accepts the development environment only, and is asked about key A with a fixed clientDataHash. The
// committed seeds (Fuzz/corpus/appattest-attestation) were made once by that root's authority, whose
// private keys were then discarded: a valid development attestation of key A, the same key in production
// (refused at step 8), another key (refused at step 5), another clientDataHash (refused at step 4), and one
// real Apple iOS 27 attestation (refused at step 1).
//
// Invariants:
// - the reference CBOR reader (FuzzSupport) predicts the refusal codes up to the format check exactly:
//   malformedAttestation when the input is not one well-formed item or lacks text `fmt`, map `attStmt`
//   with a non-empty array `x5c` and bytes `receipt`, or bytes `authData`; else unsupportedFormat when
//   `fmt` is not apple-appattest; else neither;
// - an accepted object carries the authenticator data of a valid seed (nothing else was certified), and the
//   result is key A (key id, public key), counter 0, the development environment, the object's receipt.

import FuzzSupport
import VettIDAttestation
import VettIDSoftwareAttestation
import VettIDVerification

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("AppAttestAttestationFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let directory = seedOutputDirectory {
        writeSeeds(to: directory)
        return 0
    }
    selfCheck()
    return runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

private let appID = "FUZZTEAM01.dev.vettid.fuzz"
private let clientDataHash = AppAttestClientDataHash.hashing(Array("vettid-fuzz-attestation-challenge".utf8))
/// Seeds were made at `madeAt`; the chain is validated a day later.
private let madeAt = Date(timeIntervalSince1970: 1_780_000_000)
private let validationTime = madeAt.addingTimeInterval(86_400)

private let keyA = SoftwareAttestationKey(
    privateKey: try! .init(rawRepresentation: sha256(Array("vettid-fuzz-appattest-key-A".utf8))))
private let keyC = SoftwareAttestationKey(
    privateKey: try! .init(rawRepresentation: sha256(Array("vettid-fuzz-appattest-key-C".utf8))))

private func sha256(_ bytes: [UInt8]) -> [UInt8] { AppAttestClientDataHash.hashing(bytes).bytes }

/// The root of the authority that made the seeds (its private keys no longer exist).
private let softwareRootPEM = """
    -----BEGIN CERTIFICATE-----
    MIIBijCCATCgAwIBAgIVAOBAl3dfwNg3hALtvR4MDa3217b7MAoGCCqGSM49BAMC
    MDIxMDAuBgNVBAMMJ1ZldHRJRCBTb2Z0d2FyZSBBcHAgQXR0ZXN0YXRpb24gUm9v
    dCBDQTAeFw0yNjA1MjcyMDI2NDBaFw0zNjA1MjUyMDI2NDBaMDIxMDAuBgNVBAMM
    J1ZldHRJRCBTb2Z0d2FyZSBBcHAgQXR0ZXN0YXRpb24gUm9vdCBDQTBZMBMGByqG
    SM49AgEGCCqGSM49AwEHA0IABHE+ZghyMC29bajyJa0t6APriX5lvwCnLZsZ8Wf6
    5mqTDuXjN37xaLPKVAXsgNWcfQyI/194c+DiE0FgL5LCRAqjIzAhMA8GA1UdEwEB
    /wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0gAMEUCIQDXjetK
    9BmdqqshO3DxfglmOzhi9y3nqpzL1OGqngrLawIgXyaj5KLkF4hVqAzFJdLZ1Xmc
    luti84Rkrx+KZkQbGpA=
    -----END CERTIFICATE-----
    """

private let verifier: AppAttestVerifier = {
    // The root is passed here rather than assigned afterwards, so the default (Apple's root) is never built.
    var configuration = AppAttestVerifier.Configuration(
        appID: appID, allowedEnvironments: [.development], trustedRoots: [try! .init(pemEncoded: softwareRootPEM)])
    (FixedTimePolicy() as any ChainPolicySetting).apply(to: &configuration)
    return AppAttestVerifier(configuration: configuration)
}()

/// Sets a fixed validation time. RFC5280Policy offers that only as SPI (which needs `import X509`, a module
/// this package does not declare: it may depend on the root package's products and swift-nio only) or as
/// the deprecated `init(validationTime:)`; the call goes through a protocol so the deprecation is stated
/// once, here, instead of warning on every build.
private protocol ChainPolicySetting {
    func apply(to configuration: inout AppAttestVerifier.Configuration)
}

private struct FixedTimePolicy: ChainPolicySetting {
    @available(*, deprecated, message: "RFC5280Policy(validationTime:) is deprecated in favour of an SPI initializer")
    func apply(to configuration: inout AppAttestVerifier.Configuration) {
        configuration.chainPolicy = .init(validationTime: validationTime)
    }
}

/// The authenticator data key A's attestations carry in each environment: deterministic, so rebuilt here
/// with a throwaway authority.
private let certifiedAuthenticatorData: Set<[UInt8]> = {
    let authority = try! SoftwareAttestationAuthority.generate()
    return Set(
        [AppAttestEnvironment.development, .production].map { environment in
            let object = try! SoftwareAttester(authority: authority, appID: appID, environment: environment)
                .attestKey(keyA, clientDataHash: clientDataHash.bytes, now: madeAt)
            return ReferenceCBOR.decodeSingle(object)![textKey: "authData"]!.bytesValue!
        })
}()

private func writeSeeds(to directory: String) {
    let authority = try! SoftwareAttestationAuthority.generate(
        notBefore: madeAt.addingTimeInterval(-86_400), notAfter: madeAt.addingTimeInterval(10 * 365 * 86_400))
    let development = SoftwareAttester(authority: authority, appID: appID, environment: .development)
    let production = SoftwareAttester(authority: authority, appID: appID, environment: .production)
    writeSeed(
        try! development.attestKey(keyA, clientDataHash: clientDataHash.bytes, now: madeAt), named: "valid-development",
        in: directory)
    writeSeed(
        try! production.attestKey(keyA, clientDataHash: clientDataHash.bytes, now: madeAt),
        named: "production-environment", in: directory)
    writeSeed(
        try! development.attestKey(keyC, clientDataHash: clientDataHash.bytes, now: madeAt), named: "other-key",
        in: directory)
    writeSeed(
        try! development.attestKey(keyA, clientDataHash: sha256([1, 2, 3]), now: madeAt),
        named: "other-client-data-hash", in: directory)
    print(try! authority.rootCertificate.serializeAsPEM().pemString)
}

private func verify(_ object: [UInt8]) -> Result<AttestedKey, AppAttestError> {
    runBlocking {
        do throws(AppAttestError) {
            return .success(
                try await verifier.verifyAttestation(object, keyID: keyA.keyID, clientDataHash: clientDataHash))
        } catch {
            return .failure(error)
        }
    }
}

/// The seed minted now by a fresh authority is refused at the chain; the oracle set is key A's two.
private func selfCheck() {
    precondition(certifiedAuthenticatorData.count == 2)
}

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    let reference = ReferenceCBOR.decodeSingle(input)
    let statement = reference?[textKey: "attStmt"]
    let format = reference?[textKey: "fmt"]?.textValue
    let authData = reference?[textKey: "authData"]?.bytesValue
    let receipt = statement?[textKey: "receipt"]?.bytesValue
    let wellFormed =
        format != nil && authData != nil && receipt != nil && statement?[textKey: "x5c"]?.arrayValue?.isEmpty == false
    let result = verify(input)
    trace("\(input.count) bytes: \(result) (runBlocking fallbacks so far: \(blockingFallbacks))")
    switch result {
    case .failure(let error):
        if !wellFormed {
            invariant(
                error.code == .malformedAttestation, "refused with \(error.code), the reference reader says malformed")
        } else if format != "apple-appattest" {
            invariant(error.code == .unsupportedFormat, "refused with \(error.code), expected unsupported_format")
        } else {
            invariant(
                error.code != .malformedAttestation && error.code != .unsupportedFormat,
                "refused with \(error.code) a well-formed apple-appattest object")
        }
    case .success(let key):
        guard wellFormed, let authData, let receipt, format == "apple-appattest" else {
            fatalError("fuzz invariant violated: an object the reference reader refuses was accepted")
        }
        invariant(certifiedAuthenticatorData.contains(authData), "accepted authenticator data that was never certified")
        invariant(key.keyID == keyA.keyID, "the key id is not key A's")
        invariant(
            key.publicKey.rawRepresentation == keyA.privateKey.publicKey.rawRepresentation,
            "the public key is not key A's")
        invariant(key.counter == 0 && key.environment == .development, "counter or environment is wrong")
        invariant(key.receipt == receipt, "the receipt is not the object's")
    }
}
