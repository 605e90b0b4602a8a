// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `webauthn`: the passkey parsers of VettIDAttestation and the relying party's checks of
// VettIDVerification, against specifications written out here. The first byte picks the mode; the rest is the input.
//
// 0. `WebAuthnAuthenticatorData(bytes:)`: accepted exactly when the bytes are at least 37 long and, in order, AT set
//    ⇒ 18 more bytes, the credential id its length announces and one CBOR item (the reference reader) that is a
//    supported COSE key; ED set ⇒ one CBOR map; then nothing. Fields equal their slices; the key round-trips through
//    its encoding. Refusals carry malformed_authenticator_data or malformed_public_key.
// 1. `WebAuthnAttestationObject(bytes:)`: accepted only when the reference reader reads one map of exactly `fmt`
//    (text), `attStmt` (map) and `authData` (bytes); refusals carry a malformed_* code.
// 2. `CollectedClientData(json:)`: accepted only when Foundation reads a JSON object with string `type`, `origin`
//    and `challenge`.
// 3. The input as the authenticator data of an assertion that the target's fixed P-256 key signs correctly, checked
//    by `PasskeyRelyingParty.verifyAssertion` against a stored credential with counter 5 and BE clear: accepted
//    exactly when the data parses without attested credential data, its rpIdHash is the RP id's, UP is set, BE and
//    BS are clear, and the counter is above 5 (the flag and counter rules of §7.2 steps 15-22, written out).
// 4. The input as a registration's attestation object with fixed, valid client data: never crashes; accepted only
//    when mode 0 accepts its authData and the RP's rules hold (UP, rpIdHash, AT, `none` with an empty statement or
//    `packed`).

import Crypto
import Foundation
import FuzzSupport
import VettIDAttestation
import VettIDCore
import VettIDVerification

@_cdecl("WebAuthnFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let directory = seedOutputDirectory {
        writeSeeds(to: directory)
        return 0
    }
    return runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

private let rpID = "vettid.example"
private let origin = "https://vettid.example"
private let rpIDHash = Array(SHA256.hash(data: Array(rpID.utf8)))
private let challenge = [UInt8](repeating: 0x5A, count: 32)
private let party = PasskeyRelyingParty(configuration: .init(rpID: rpID, origins: [origin]))
/// A fixed key, so the seeds stay valid.
private let key = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 31) + [0x01])
private let coseKey: COSEKey = {
    let point = Array(key.publicKey.rawRepresentation)
    return .p256(x: Array(point.prefix(32)), y: Array(point.suffix(32)))
}()
private let credentialID = [UInt8](repeating: 0xC1, count: 16)
private let assertionClientData = CollectedClientData(type: .get, challenge: challenge, origin: origin)
private let registrationClientData = CollectedClientData(type: .create, challenge: challenge, origin: origin)

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    guard let mode = buffer.first else { return }
    let input = Array(buffer.dropFirst())
    switch mode % 5 {
    case 0: checkAuthenticatorData(input)
    case 1: checkAttestationObject(input)
    case 2: checkClientData(input)
    case 3: checkAssertion(input)
    default: checkRegistration(input)
    }
}

/// Whether the reference reader's item is a COSE key this project supports (RFC 9053 parameters).
private func isSupportedKey(_ item: ReferenceCBOR) -> Bool {
    guard case .map(let pairs) = item else { return false }
    func value(_ label: Int) -> ReferenceCBOR? {
        let key: ReferenceCBOR = label >= 0 ? .unsigned(UInt64(label)) : .negative(UInt64(-1 - label))
        return pairs.first { $0.key == key }?.value
    }
    func bytes(_ label: Int, _ count: Int?) -> Bool {
        guard let value = value(label)?.bytesValue else { return false }
        return count.map { value.count == $0 } ?? !value.isEmpty
    }
    switch (value(1), value(3)) {
    case (.unsigned(2), .negative(6)): return value(-1) == .unsigned(1) && bytes(-2, 32) && bytes(-3, 32)
    case (.unsigned(1), .negative(7)): return value(-1) == .unsigned(6) && bytes(-2, 32)
    case (.unsigned(3), .negative(256)):
        guard let n = value(-1)?.bytesValue, let e = value(-2)?.bytesValue else { return false }
        return !n.isEmpty && !e.isEmpty && n.first != 0 && e.first != 0 && e.count <= 8
    default: return false
    }
}

/// The specification of mode 0: whether the bytes are well-formed authenticator data.
private func shouldParseAuthenticatorData(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 37 else { return false }
    var index = 37
    if bytes[32] & 0x40 != 0 {
        guard bytes.count >= 55 else { return false }
        let length = Int(bigEndian(bytes[53..<55]))
        guard bytes.count - 55 >= length else { return false }
        guard let (item, end) = ReferenceCBOR.decodePrefix(bytes, at: 55 + length), isSupportedKey(item) else {
            return false
        }
        index = end
    }
    if bytes[32] & 0x80 != 0 {
        guard let (item, end) = ReferenceCBOR.decodePrefix(bytes, at: index), item.isMap else { return false }
        index = end
    }
    return index == bytes.count
}

private func checkAuthenticatorData(_ bytes: [UInt8]) {
    let expected = shouldParseAuthenticatorData(bytes)
    let parsed: WebAuthnAuthenticatorData
    do { parsed = try WebAuthnAuthenticatorData(bytes: bytes) } catch {
        invariant(!expected, "refused well-formed authenticator data: \(error)")
        invariant(
            error.code == .malformedAuthenticatorData || error.code == .malformedPublicKey,
            "unexpected refusal code \(error.code)")
        trace("refused: \(error.code)")
        return
    }
    invariant(expected, "accepted malformed authenticator data of \(bytes.count) bytes")
    invariant(parsed.rpIDHash == Array(bytes[0..<32]), "rpIDHash is not bytes 0..<32")
    invariant(parsed.flags.rawValue == bytes[32], "flags is not byte 32")
    invariant(UInt64(parsed.signCount) == bigEndian(bytes[33..<37]), "signCount is not bytes 33..<37")
    invariant(parsed.bytes == bytes, "bytes are not kept")
    invariant((parsed.attestedCredential != nil) == (bytes[32] & 0x40 != 0), "AT and attested data disagree")
    if let credential = parsed.attestedCredential {
        let length = Int(bigEndian(bytes[53..<55]))
        invariant(credential.aaguid == Array(bytes[37..<53]), "aaguid is not bytes 37..<53")
        invariant(credential.credentialID == Array(bytes[55..<(55 + length)]), "credential id is not its slice")
        invariant(
            (try? COSEKey(bytes: credential.publicKey.encoded)) == credential.publicKey, "the key does not round-trip")
    }
    trace("accepted")
}

private func checkAttestationObject(_ bytes: [UInt8]) {
    do {
        let object = try WebAuthnAttestationObject(bytes: bytes)
        guard case .map(let pairs)? = ReferenceCBOR.decodeSingle(bytes) else {
            invariant(false, "accepted an attestation object the reference reader refuses")
            return
        }
        invariant(pairs.count == 3, "accepted a map of \(pairs.count) entries")
        let reference = ReferenceCBOR.map(pairs)
        invariant(reference[textKey: "fmt"]?.textValue == object.format, "fmt differs")
        invariant(reference[textKey: "attStmt"]?.isMap == true, "attStmt is not a map")
        invariant(reference[textKey: "authData"]?.bytesValue == object.authenticatorData.bytes, "authData differs")
        trace("accepted")
    } catch {
        invariant(
            [.malformedAttestationObject, .malformedAuthenticatorData, .malformedPublicKey].contains(error.code),
            "unexpected refusal code \(error.code)")
        trace("refused: \(error.code)")
    }
}

private func checkClientData(_ bytes: [UInt8]) {
    do {
        let clientData = try CollectedClientData(json: bytes)
        let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        invariant(object?["type"] as? String == clientData.type, "type differs from Foundation's reading")
        invariant(object?["origin"] as? String == clientData.origin, "origin differs from Foundation's reading")
        invariant(object?["challenge"] is String, "challenge is not a string")
        invariant(clientData.json == bytes, "the JSON is not kept")
        trace("accepted")
    } catch {
        invariant(error.code == .malformedClientData, "unexpected refusal code \(error.code)")
        trace("refused")
    }
}

private func checkAssertion(_ authenticatorData: [UInt8]) {
    let signature = try! key.signature(for: authenticatorData + assertionClientData.hash)
    let response = PasskeyAssertionResponse(
        credentialID: credentialID, clientDataJSON: assertionClientData.json, authenticatorData: authenticatorData,
        signature: Array(signature.derRepresentation), userHandle: [7])
    let stored = PasskeyRelyingParty.StoredCredential(
        credentialID: credentialID, publicKey: coseKey, signCount: 5, backupEligible: false, ownerUserHandle: [7])
    let expected =
        shouldParseAuthenticatorData(authenticatorData) && authenticatorData[32] & 0x40 == 0
        && Array(authenticatorData[0..<32]) == rpIDHash && authenticatorData[32] & 0x01 != 0
        && authenticatorData[32] & 0x18 == 0 && bigEndian(authenticatorData[33..<37]) > 5
    do {
        let verified = try party.verifyAssertion(
            response, challenge: challenge, allowedCredentialIDs: [credentialID], identifiedUserHandle: nil,
            credential: stored)
        invariant(expected, "accepted an assertion the rules refuse")
        invariant(UInt64(verified.signCount) == bigEndian(authenticatorData[33..<37]), "wrong counter reported")
        trace("accepted")
    } catch {
        invariant(!expected, "refused an assertion the rules accept: \(error)")
        trace("refused: \(error.code)")
    }
}

private func checkRegistration(_ attestationObject: [UInt8]) {
    let response = PasskeyRegistrationResponse(
        credentialID: credentialID, clientDataJSON: registrationClientData.json,
        attestationObject: attestationObject, transports: [])
    do {
        let credential = try party.verifyRegistration(response, challenge: challenge)
        let object = try WebAuthnAttestationObject(bytes: attestationObject)
        let data = object.authenticatorData.bytes
        invariant(shouldParseAuthenticatorData(data), "accepted malformed authenticator data")
        invariant(Array(data[0..<32]) == rpIDHash && data[32] & 0x41 == 0x41, "accepted without UP, AT or rpIdHash")
        invariant(["none", "packed"].contains(object.format), "accepted the format \(object.format)")
        invariant(credential.credentialID == credentialID, "accepted another credential id")
        trace("accepted")
    } catch {
        trace("refused: \(error.code)")
    }
}

private func writeSeeds(to directory: String) {
    let registrationData = WebAuthnAuthenticatorData.encode(
        rpID: rpID, flags: [.userPresent, .userVerified], signCount: 0,
        attestedCredential: .init(
            aaguid: [UInt8](repeating: 0, count: 16), credentialID: credentialID, publicKey: coseKey))
    let assertionData = WebAuthnAuthenticatorData.encode(rpID: rpID, flags: .userPresent, signCount: 6)
    let attestation = WebAuthnAttestationObject.encodeNone(authenticatorData: registrationData)
    writeSeed([0] + registrationData, named: "authdata-registration", in: directory)
    writeSeed([0] + assertionData, named: "authdata-assertion", in: directory)
    writeSeed([1] + attestation, named: "attestation-none", in: directory)
    writeSeed([2] + assertionClientData.json, named: "clientdata-get", in: directory)
    writeSeed([3] + assertionData, named: "assertion-valid", in: directory)
    writeSeed(
        [3] + WebAuthnAuthenticatorData.encode(rpID: rpID, flags: [.userPresent, .backupState], signCount: 9),
        named: "assertion-bs-without-be", in: directory)
    writeSeed([4] + attestation, named: "registration-none", in: directory)
}
