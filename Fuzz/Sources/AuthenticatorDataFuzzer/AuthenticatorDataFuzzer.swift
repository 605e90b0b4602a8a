// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `appattest-authdata`: App Attest authenticator-data parsers and, through them, the
// internal CBOR reader of VettIDAttestation, against specifications written out here.
//
// Every input is parsed four ways:
// 1. `AuthenticatorData(bytes:)` (attestation layout): it succeeds exactly when the bytes are 37 long, or at
//    least 55 long and holding the credential id their length field announces; fields equal the slices
//    they come from (rpIdHash 0..<32, flags 32, counter big-endian 33..<37, aaguid 37..<53, credential id,
//    trailing data);
// 2. `AssertionAuthenticatorData(bytes:)`: it succeeds exactly when the bytes are at least 37 long and what
//    follows the header is empty with ED clear, or is one CBOR map by the reference reader (FuzzSupport);
//    counter is big-endian 33..<37 and extensions are bytes 37...;
// 3. the input as the extension of a fixed ED header: accepted exactly when the reference reader reads it
//    as one map;
// 4. the input as the value of a one-entry map after that header: accepted exactly when the reference
//    reader reads `{0: input}`, i.e. when the input is one well-formed item of any type.
// Refusals must carry the code malformedAuthenticatorData.

import FuzzSupport
import VettIDAttestation

@_cdecl("AuthenticatorDataFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// rpIdHash of a made-up app id, ED and AT set, counter 7.
private let edHeader: [UInt8] = Array(repeating: 0xAB, count: 32) + [0xC0, 0, 0, 0, 7]

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    checkAttestationLayout(input)
    checkAssertionLayout(input)
    checkAssertionLayout(edHeader + input)
    checkAssertionLayout(edHeader + [0xA1, 0x00] + input)
}

private func checkAttestationLayout(_ bytes: [UInt8]) {
    let credentialLength = bytes.count >= 55 ? Int(bigEndian(bytes[53..<55])) : 0
    let shouldParse = bytes.count == 37 || (bytes.count >= 55 && bytes.count >= 55 + credentialLength)
    let parsed: AuthenticatorData
    do {
        parsed = try AuthenticatorData(bytes: bytes)
    } catch {
        invariant(!shouldParse, "AuthenticatorData refused well-formed data of \(bytes.count) bytes: \(error)")
        invariant(error.code == .malformedAuthenticatorData, "unexpected refusal code \(error.code)")
        return
    }
    invariant(shouldParse, "AuthenticatorData accepted malformed data of \(bytes.count) bytes")
    invariant(parsed.rpIDHash == Array(bytes[0..<32]), "rpIDHash is not bytes 0..<32")
    invariant(parsed.flags == bytes[32], "flags is not byte 32")
    invariant(UInt64(parsed.counter) == bigEndian(bytes[33..<37]), "counter is not big-endian bytes 33..<37")
    if bytes.count == 37 {
        invariant(
            parsed.aaguid == nil && parsed.credentialID == nil && parsed.trailingData.isEmpty,
            "37 bytes carry no credential data")
    } else {
        invariant(parsed.aaguid == Array(bytes[37..<53]), "aaguid is not bytes 37..<53")
        invariant(
            parsed.credentialID == Array(bytes[55..<(55 + credentialLength)]), "credentialID is not the announced slice"
        )
        invariant(parsed.trailingData == Array(bytes[(55 + credentialLength)...]), "trailingData is not the rest")
    }
}

private func checkAssertionLayout(_ bytes: [UInt8]) {
    var shouldParse = false
    if bytes.count >= 37 {
        let rest = Array(bytes[37...])
        if rest.isEmpty {
            shouldParse = bytes[32] & AssertionAuthenticatorData.extensionDataFlag == 0
        } else {
            shouldParse = ReferenceCBOR.decodeSingle(rest)?.isMap == true
        }
    }
    let parsed: AssertionAuthenticatorData
    do {
        parsed = try AssertionAuthenticatorData(bytes: bytes)
    } catch {
        invariant(!shouldParse, "AssertionAuthenticatorData refused data the reference accepts: \(error)")
        invariant(error.code == .malformedAuthenticatorData, "unexpected refusal code \(error.code)")
        return
    }
    invariant(shouldParse, "AssertionAuthenticatorData accepted data the reference refuses")
    invariant(parsed.rpIDHash == Array(bytes[0..<32]), "rpIDHash is not bytes 0..<32")
    invariant(parsed.flags == bytes[32], "flags is not byte 32")
    invariant(UInt64(parsed.counter) == bigEndian(bytes[33..<37]), "counter is not big-endian bytes 33..<37")
    invariant(parsed.extensions == Array(bytes[37...]), "extensions are not bytes 37...")
}
