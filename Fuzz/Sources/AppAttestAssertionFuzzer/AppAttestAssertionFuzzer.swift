// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `appattest-assertion`: AppAttestVerifier.verifyAssertion, which decodes the CBOR
// assertion, checks the ECDSA signature, parses the authenticator data and checks app id and counter.
//
// Two modes run on every input:
// - raw: the input is the assertion object, verified with a fixed P-256 key A (whose seeds, committed in
//   Fuzz/corpus/appattest-assertion, are valid). The reference CBOR reader (FuzzSupport) predicts whether
//   the refusal is malformedAssertion: exactly when the input is not one well-formed item, or not a map
//   with byte strings `signature` and `authenticatorData`. An input that verifies must carry authenticator
//   data that key A signed for a seed (the fixed set below), and the returned counter must be its
//   big-endian bytes 33..<37 and greater than the stored counter; anything else is a forgery.
// - signed (inputs of 37 bytes or more): the input is the authenticator data; this process signs it with
//   key B, wraps it in CBOR and verifies. The result must then follow the written-out rules exactly: accepted
//   iff the bytes are assertion authenticator data (header, then nothing with ED clear or one CBOR map),
//   rpIdHash is SHA-256 of the app id and the counter exceeds the stored one; refused otherwise with the
//   code of the first failing rule, never with a signature or CBOR error.

import FoundationEssentials
import FuzzSupport
import VettIDAttestation
import VettIDSoftwareAttestation
import VettIDVerification

@_cdecl("AppAttestAssertionFuzzer_main")
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
private let clientData = Array("vettid-fuzz-assertion-client-data".utf8)
private let storedCounter: UInt32 = 2
private let rpIDHash = sha256(Array(appID.utf8))
/// No trusted roots: assertions do not use them, and leaving Apple's out keeps its lazily parsed certificate
/// (whose key LeakSanitizer cannot see through an enum payload) out of the process.
private let verifier = AppAttestVerifier(
    configuration: .init(appID: appID, allowedEnvironments: [.development, .production], trustedRoots: []))

/// Key A: its private half only signs the committed seeds (in seed-writing mode); the fuzzing run uses only
/// its public key, so nothing the run computes can help forge an assertion for it.
private let keyA = SoftwareAttestationKey(
    privateKey: try! .init(rawRepresentation: sha256(Array("vettid-fuzz-appattest-key-A".utf8))))
/// Key B: a fresh key that signs fuzzed authenticator data during the run.
private let keyB = SoftwareAttestationKey()

/// The (counter, shape) of each committed valid seed.
private let seedShapes: [(UInt32, SoftwareAttester.AssertionShape)] = [
    (3, .header), (3, .ios27), (0xFFFF_FFFF, .ios27), (1, .header), (2, .ios27),
]

private func sha256(_ bytes: [UInt8]) -> [UInt8] { AppAttestClientDataHash.hashing(bytes).bytes }

private let attester = SoftwareAttester(authority: try! .generate(), appID: appID)

/// The authenticator data of each seed: deterministic, so the set is rebuilt here rather than stored.
private let signedAuthenticatorData: Set<[UInt8]> = Set(
    seedShapes.map { counter, shape in
        authenticatorData(
            of: try! attester.generateAssertion(keyA, clientData: clientData, counter: counter, shape: shape))
    })

private func authenticatorData(of assertion: [UInt8]) -> [UInt8] {
    ReferenceCBOR.decodeSingle(assertion)![textKey: "authenticatorData"]!.bytesValue!
}

private func writeSeeds(to directory: String) {
    for (counter, shape) in seedShapes {
        let assertion = try! attester.generateAssertion(keyA, clientData: clientData, counter: counter, shape: shape)
        writeSeed(assertion, named: "valid-\(shape)-counter-\(counter)", in: directory)
    }
}

/// A fresh assertion by key A verifies, and one with the stored counter does not: the oracle is not vacuous.
private func selfCheck() {
    let fresh = try! attester.generateAssertion(keyA, clientData: clientData, counter: 3)
    precondition(
        (try? verifier.verifyAssertion(
            fresh, clientData: clientData, publicKey: keyA.privateKey.publicKey, storedCounter: storedCounter)) == 3)
    precondition(signedAuthenticatorData.contains(authenticatorData(of: fresh)))
}

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    checkRaw(input)
    if input.count >= 37 { checkSigned(input) }
}

private func checkRaw(_ input: [UInt8]) {
    let reference = ReferenceCBOR.decodeSingle(input)
    let signature = reference?[textKey: "signature"]?.bytesValue
    let authData = reference?[textKey: "authenticatorData"]?.bytesValue
    let wellFormed = signature != nil && authData != nil
    let counter: UInt32
    do {
        counter = try verifier.verifyAssertion(
            input, clientData: clientData, publicKey: keyA.privateKey.publicKey, storedCounter: storedCounter)
    } catch {
        trace("raw, \(input.count) bytes: \(error)")
        invariant(
            wellFormed == (error.code != .malformedAssertion),
            "malformedAssertion disagrees with the reference CBOR reader: \(error)")
        return
    }
    trace("raw, \(input.count) bytes: verified, counter \(counter)")
    guard let authData, wellFormed else {
        fatalError("fuzz invariant violated: an assertion the reference reader refuses verified")
    }
    invariant(
        signedAuthenticatorData.contains(authData), "an assertion over authenticator data key A never signed verified")
    invariant(
        authData.count >= 37 && UInt64(counter) == bigEndian(authData[33..<37]), "the counter is not bytes 33..<37")
    invariant(counter > storedCounter, "the counter did not increase")
}

private func checkSigned(_ authData: [UInt8]) {
    let nonce = sha256(authData + sha256(clientData))
    let signature = Array(try! keyB.privateKey.signature(for: nonce).derRepresentation)
    let assertion =
        [0xA2] + CBORWriter.text("signature") + CBORWriter.bytes(signature)
        + CBORWriter.text("authenticatorData") + CBORWriter.bytes(authData)

    let rest = Array(authData[37...])
    let layoutOK =
        rest.isEmpty
        ? authData[32] & AssertionAuthenticatorData.extensionDataFlag == 0
        : ReferenceCBOR.decodeSingle(rest)?.isMap == true
    let expectedCounter = UInt32(bigEndian(authData[33..<37]))
    let expectedCode: AppAttestError.Code? =
        !layoutOK
        ? .malformedAuthenticatorData
        : Array(authData[0..<32]) != rpIDHash
            ? .appIDMismatch
            : expectedCounter <= storedCounter
                ? .counterNotIncreased
                : nil
    do {
        let counter = try verifier.verifyAssertion(
            assertion, clientData: clientData, publicKey: keyB.privateKey.publicKey, storedCounter: storedCounter)
        invariant(expectedCode == nil, "verified although it should fail with \(expectedCode!)")
        invariant(
            counter == expectedCounter, "returned counter \(counter), authenticator data holds \(expectedCounter)")
    } catch {
        invariant(
            error.code == expectedCode,
            "refused with \(error.code), expected \(expectedCode.map(\.rawValue) ?? "success")")
    }
}
