// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `session`: the sealed session's parsers and the vault's request path (docs/protocol.md §7.3).
//
// Everything runs at a fixed time against a fixed session (suite 0x0001, keys expanded from a fixed prk, 200
// requests), in a fresh SealedSessionStore per input (no reorder window), so every input has one verdict. The first
// byte picks the mode; the rest is the input:
// - 0 init: SessionInit(parsing:) round-trips byte for byte when it parses; SessionResponder.check accepts only a
//   parsed init for the fixed member within the clock window whose device signature verifies (checked here
//   with swift-crypto directly), and otherwise refuses with the code of the first failing rule.
// - 1 response: SessionResponse(parsing:) round-trips; the fixed pending handshake never completes with it
//   (its genuine response is not in the corpus: the vault's HPKE is randomized) and refuses with a session code.
// - 2 envelope: SessionEnvelopeHeader / SessionEnvelope parsing round-trip; the vault's open refuses with the
//   parser's code when it does not parse, with `bad_envelope` when the AEAD (checked here with ChaChaPoly
//   directly) does not open, and otherwise as mode 3 predicts; the app's openResponse never crashes; the inner
//   request, response and refusal decoders round-trip whatever decodes.
// - 3 sealed: byte 1 is the sequence number minus one, the rest a padded plaintext that this process seals under
//   the session's k_a2v; the vault's outcome must be the one the rules predict (limit, padding, inner request,
//   exp), refusals after admission must open on the app side as a failure with that code, and an admitted
//   request's answer must open on the app side.

import Crypto
import FuzzSupport
import VettIDCore
import VettIDCrypto
import VettIDSession

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("SessionFuzzer_main")
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

// MARK: - Fixed context

private let member = "3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b"
private let nowMilliseconds: UInt64 = 1_767_225_600_000
private let maxMessages: UInt32 = 200

private struct FixedWallClock: WallClock {
    func now() -> Date { Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000) }
}

/// Counter-mode bytes from SHA-256, so the fixed handshake is the same on every run.
private struct FixedRandom: SessionRandom {
    func bytes(_ count: Int) -> [UInt8] {
        var output: [UInt8] = []
        var counter = 0
        while output.count < count {
            counter += 1
            output += SHA256.hash(data: Array("vettid-fuzz-session \(count) \(counter)".utf8))
        }
        return Array(output.prefix(count))
    }
}

private let sessionID = SessionID(bytes: (0..<16).map { 0x40 + UInt8($0) })!
private let keys = SessionKeySchedule.keys(pseudorandomKey: Array(SHA256.hash(data: Array("vettid-fuzz-prk".utf8))))
private let channel = SessionChannel(sessionID: sessionID, suite: .x25519, keys: keys)
private let padding = SessionPadding()
private let session = SealedSession(
    channel: channel, memberGUID: member, deviceThumbprint: "fuzz-device", vaultKID: "fuzz-vault",
    createdAtMilliseconds: nowMilliseconds, expiresAtMilliseconds: nowMilliseconds + 86_400_000,
    maxMessages: maxMessages)

private let deviceKey = try! P256.Signing.PrivateKey(
    rawRepresentation: Array(SHA256.hash(data: Array("vettid-fuzz-session-device".utf8))))
/// The vault key the app pins: nothing signs with its private half, so no response can complete the handshake.
private let pinnedVaultKey = P256.Signing.PrivateKey().publicKey
private let responder = SessionResponder(
    configuration: .init(suites: [.xWing, .x25519]), nonces: InMemoryHandshakeNonceCache(), clock: FixedWallClock(),
    random: FixedRandom())

/// An app handshake waiting for a response; its init is fixed (the device signature is not, which only matters
/// to the vault).
private let pending: PendingSessionHandshake = runBlocking {
    let initiator = SessionInitiator(
        memberGUID: member, deviceSigner: SoftwareDPoPSigner(privateKey: deviceKey), expectedVaultKID: "fuzz-vault",
        suites: [.x25519], clock: FixedWallClock(), random: FixedRandom())
    return try! await initiator.start()
}

/// The vault's request path on a fresh store holding the fixed session (no reorder window).
private func open(_ bytes: [UInt8]) -> SealedRequestOutcome {
    var store = SealedSessionStore(configuration: .init(reorderWait: .zero))
    store.insert(session, nowMilliseconds: nowMilliseconds)
    let outcome = store.open(bytes, memberGUID: member, nowMilliseconds: nowMilliseconds, now: .now)
    trace("vault: \(refusalCode(outcome).map(\.rawValue) ?? "admitted")")
    return outcome
}

// MARK: - Modes

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    guard let mode = input.first else { return }
    let rest = Array(input.dropFirst())
    switch mode % 4 {
    case 0: checkInit(rest)
    case 1: checkResponse(rest)
    case 2: checkEnvelope(rest)
    default: checkSealed(rest)
    }
}

private func code(_ body: () throws(SessionError) -> Void) -> SessionError.Code? {
    do {
        try body()
        return nil
    } catch {
        return error.code
    }
}

private func checkInit(_ bytes: [UInt8]) {
    let parsed: SessionInit
    do {
        parsed = try SessionInit(parsing: bytes)
    } catch {
        invariant([.malformedHandshake, .unsupportedVersion].contains(error.code), "init refused with \(error.code)")
        let checkCode = code { () throws(SessionError) in _ = try responder.check(bytes, memberGUID: member) }
        invariant(checkCode == error.code, "check disagrees")
        return
    }
    invariant(parsed.bytes == bytes, "a parsed init does not serialize to its bytes")
    invariant(parsed.signedBytes + parsed.deviceSignature == bytes, "signedBytes is not the init without its signature")
    let signatureValid: Bool = {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parsed.deviceSignature) else {
            return false
        }
        return parsed.devicePublicKey.isValidSignature(
            signature, for: Array("VettID session v1 init".utf8) + parsed.signedBytes)
    }()
    invariant(parsed.hasValidDeviceSignature == signatureValid, "hasValidDeviceSignature disagrees with P-256")
    let skew: UInt64 = 300_000
    let expected: SessionError.Code? =
        if parsed.memberGUID != member {
            .memberMismatch
        } else if !parsed.offers.contains(where: { $0.suite == .xWing || $0.suite == .x25519 }) {
            .noCommonSuite
        } else if parsed.timestampMilliseconds > nowMilliseconds + skew
            || parsed.timestampMilliseconds < nowMilliseconds - skew
        {
            .staleHandshake
        } else if !signatureValid {
            .badDeviceSignature
        } else {
            nil
        }
    do {
        let checked = try responder.check(bytes, memberGUID: member)
        trace("init: accepted, suite \(checked.suite)")
        invariant(expected == nil, "check accepted an init that breaks \(expected!)")
        invariant(parsed.offers.first { [.xWing, .x25519].contains($0.suite) }?.suite == checked.suite, "wrong suite")
    } catch {
        trace("init: \(error.code)")
        invariant(
            error.code == expected,
            "check refused with \(error.code), expected \(expected.map(\.rawValue) ?? "success")")
    }
}

private func checkResponse(_ bytes: [UInt8]) {
    if let parsed = try? SessionResponse(parsing: bytes) {
        invariant(parsed.bytes == bytes, "a parsed response does not serialize to its bytes")
        invariant(
            parsed.signedBytes + parsed.vaultSignature == bytes, "signedBytes is not the response without its signature"
        )
    }
    do {
        _ = try pending.complete(response: bytes, pinnedVaultKeys: ["fuzz-vault": pinnedVaultKey])
        fatalError("fuzz invariant violated: a fuzzed response completed the handshake")
    } catch {
        trace("response: \(error.code)")
        invariant(!error.code.rawValue.isEmpty, "an empty code")
    }
}

private func checkEnvelope(_ bytes: [UInt8]) {
    var parseError: SessionError?
    do {
        let header = try SessionEnvelopeHeader(parsing: bytes)
        invariant(header.bytes == Array(bytes.prefix(SessionEnvelopeHeader.length)), "header does not round-trip")
        let envelope = try SessionEnvelope(parsing: bytes)
        invariant(envelope.bytes == bytes, "envelope does not round-trip")
    } catch {
        invariant(
            [.malformedEnvelope, .unsupportedVersion].contains(error.code), "envelope refused with \(error.code)")
        parseError = error
    }
    let outcome = open(bytes)
    if let parseError {
        invariant(refusalCode(outcome) == parseError.code, "the vault's code differs from the parser's")
    } else if bytes[3] == 1 {
        invariant(refusalCode(outcome) == .malformedEnvelope, "a response-flagged request was not malformed")
    } else if Array(bytes[4..<20]) != sessionID.bytes {
        invariant(refusalCode(outcome) == .unknownSession, "another session id was not unknown")
    } else {
        let sequence = bytes[20..<28].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let suiteMatches = bytes[1] == 0 && bytes[2] == 1
        if sequence > UInt64(maxMessages) {
            invariant(refusalCode(outcome) == .sessionExpired, "a number beyond the limit was not session_expired")
        } else if !suiteMatches {
            invariant(refusalCode(outcome) == .suiteMismatch, "another suite was not suite_mismatch")
        } else if let padded = openDirectly(bytes) {
            checkPredicted(outcome, padded: padded, sequence: sequence)
        } else {
            invariant(refusalCode(outcome) == .badEnvelope, "an envelope that does not open was not bad_envelope")
        }
    }
    _ = try? channel.openResponse(bytes, sequence: 1)
    if let request = try? SessionInnerRequest(decoding: bytes) {
        invariant((try? SessionInnerRequest(decoding: request.bytes)) == request, "inner request does not round-trip")
    }
    if let response = try? SessionInnerResponse(decoding: bytes) {
        invariant(
            (try? SessionInnerResponse(decoding: response.bytes)) == response, "inner response does not round-trip")
    }
    if let refusal = try? SessionRefusal(parsing: bytes) {
        invariant((try? SessionRefusal(parsing: refusal.bytes)) == refusal, "refusal does not round-trip")
    }
}

private func checkSealed(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let sequence = UInt64(first) + 1
    let padded = Array(bytes.dropFirst())
    let header = SessionEnvelopeHeader(suite: .x25519, isResponse: false, sessionID: sessionID, sequence: sequence)
    let envelope = SessionEnvelope.seal(padded, header: header, key: keys.appToVault).bytes
    let outcome = open(envelope)
    if sequence > UInt64(maxMessages) {
        invariant(refusalCode(outcome) == .sessionExpired, "a number beyond the limit was not session_expired")
        return
    }
    invariant(openDirectly(envelope) == padded, "ChaChaPoly does not open what SessionEnvelope sealed")
    checkPredicted(outcome, padded: padded, sequence: sequence)
}

/// The outcome the rules predict for an envelope of the fixed session that opened to `padded`.
private func checkPredicted(_ outcome: SealedRequestOutcome, padded: [UInt8], sequence: UInt64) {
    let expected: SessionError.Code?
    var inner: [UInt8] = []
    if padded.isEmpty || padded.count % 512 != 0 {
        expected = .badPadding
    } else if padded.count > padding.maxPaddedLength {
        expected = .messageTooLarge
    } else if let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 {
        inner = Array(padded[..<marker])
        if inner.count > padding.maxInnerLength {
            expected = .messageTooLarge
        } else if let request = try? SessionInnerRequest(decoding: inner) {
            expected = request.expiresAtMilliseconds > Int64(nowMilliseconds) ? nil : .requestExpired
        } else {
            expected = .malformedMessage
        }
    } else {
        expected = .badPadding
    }
    switch outcome {
    case .admitted(let admitted):
        invariant(expected == nil, "admitted a request the rules refuse with \(expected!)")
        invariant(admitted.sequence == sequence, "admitted another sequence number")
        invariant((try? SessionInnerRequest(decoding: inner)) == admitted.request, "the admitted request differs")
        // The echo answer is shorter than its request, so it always fits.
        let answer = SessionInnerResponse.success(id: admitted.request.id, result: admitted.request.body)
        guard let reply = try? admitted.seal(answer) else {
            fatalError("fuzz invariant violated: the answer to an admitted request could not be sealed")
        }
        let opened = try? SessionInnerResponse(decoding: channel.openResponse(reply, sequence: sequence))
        invariant(opened == answer, "the app does not read the vault's answer")
    case .refused(let error, let reply, let sealed):
        invariant(
            error.code == expected, "refused with \(error.code), expected \(expected.map(\.rawValue) ?? "admission")")
        let afterAdmission: Set<SessionError.Code> = [.malformedMessage, .requestExpired]
        invariant(sealed == afterAdmission.contains(error.code), "sealed is \(sealed) for \(error.code)")
        if sealed {
            let opened = try? SessionInnerResponse(decoding: channel.openResponse(reply, sequence: sequence))
            guard case .failure(_, let failure)? = opened else {
                fatalError("fuzz invariant violated: a sealed refusal does not open as a failure")
            }
            invariant(failure.code.rawValue == error.code.rawValue, "the sealed refusal carries another code")
        } else {
            invariant((try? SessionRefusal(parsing: reply))?.error.code == error.code, "the clear refusal differs")
        }
    }
}

private func refusalCode(_ outcome: SealedRequestOutcome) -> SessionError.Code? {
    if case .refused(let error, _, _) = outcome { error.code } else { nil }
}

/// Opens a request envelope of the fixed session with swift-crypto directly.
private func openDirectly(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 44,
        let box = try? ChaChaPoly.SealedBox(
            nonce: ChaChaPoly.Nonce(data: [0, 0, 0, 0] + bytes[20..<28]), ciphertext: bytes[28..<(bytes.count - 16)],
            tag: bytes.suffix(16)),
        let plaintext = try? ChaChaPoly.open(
            box, using: SymmetricKey(data: keys.appToVault), authenticating: bytes.prefix(28))
    else { return nil }
    return Array(plaintext)
}

// MARK: - Seeds

private func writeSeeds(to directory: String) {
    let responderInit = runBlocking { () -> [[UInt8]] in
        var inits: [[UInt8]] = []
        for suites in [[SessionSuite.x25519], [.xWing, .x25519]] {
            let initiator = SessionInitiator(
                memberGUID: member, deviceSigner: SoftwareDPoPSigner(privateKey: deviceKey),
                expectedVaultKID: "fuzz-vault", suites: suites, clock: FixedWallClock(), random: FixedRandom())
            inits.append(try! await initiator.start().initBytes)
        }
        return inits
    }
    writeSeed([0] + responderInit[0], named: "init-x25519", in: directory)
    writeSeed([0] + responderInit[1], named: "init-xwing-x25519", in: directory)
    let vaultKey = try! VaultIdentityKey(kid: "fuzz-vault", privateKey: deviceKey)
    let accepted = try! responder.accept(responder.check(pending.initBytes, memberGUID: member), identity: vaultKey)
    writeSeed([1] + accepted.responseBytes, named: "response-x25519", in: directory)
    let request = try! SessionInnerRequest(
        id: "0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1", handler: "echo", body: .object([("hello", .string("vault"))]),
        expiresAtMilliseconds: Int64(nowMilliseconds) + 30_000)
    writeSeed([2] + (try! channel.sealRequest(request.bytes, sequence: 1)), named: "envelope-request", in: directory)
    writeSeed(
        [2]
            + (try! channel.sealResponse(SessionInnerResponse.success(id: request.id, result: .null).bytes, sequence: 1)),
        named: "envelope-response", in: directory)
    writeSeed([2] + SessionRefusal(SessionError(.replayed, "x")).bytes, named: "refusal", in: directory)
    writeSeed([3, 0] + (try! padding.pad(request.bytes)), named: "sealed-request", in: directory)
    let expired = try! SessionInnerRequest(id: "e", handler: "echo", body: .null, expiresAtMilliseconds: 0)
    writeSeed([3, 4] + (try! padding.pad(expired.bytes)), named: "sealed-expired", in: directory)
    writeSeed([3, 1] + (try! padding.pad(Array("{\"id\":\"x\"}".utf8))), named: "sealed-malformed", in: directory)
    writeSeed(
        [3, 2] + Array("{}".utf8) + [0x81] + [UInt8](repeating: 0, count: 509), named: "sealed-bad-padding",
        in: directory)
}
