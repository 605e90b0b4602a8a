// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import CArgon2
import VettIDCore

/// Thin, typed wrapper over the reference Argon2 library (libargon2).
enum Argon2 {
    /// A libargon2 failure, carrying its numeric code and message.
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "argon2 error \(code): \(String(cString: argon2_error_message(code)))" }
    }

    /// Hashes `password` into a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
    static func hashEncoded(password: [UInt8], salt: [UInt8], parameters: Argon2Parameters) throws -> String {
        let length = argon2_encodedlen(
            parameters.iterations, parameters.memoryKiB, parameters.parallelism,
            UInt32(salt.count), UInt32(parameters.hashLength), Argon2_id
        )
        var encoded = [CChar](repeating: 0, count: length)
        let result = password.withUnsafeBytes { pwd in
            salt.withUnsafeBytes { saltBytes in
                argon2id_hash_encoded(
                    parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                    pwd.baseAddress, pwd.count, saltBytes.baseAddress, saltBytes.count,
                    parameters.hashLength, &encoded, length
                )
            }
        }
        guard result == ARGON2_OK.rawValue else { throw Failure(code: result) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Verifies `password` against a PHC string in constant time (libargon2 compares the tags safely).
    static func verify(encoded: String, password: [UInt8]) -> Bool {
        password.withUnsafeBytes { pwd in
            argon2id_verify(encoded, pwd.baseAddress, pwd.count) == ARGON2_OK.rawValue
        }
    }

    /// The raw tag through the full context API, with optional secret and associated data (RFC 9106 §3.1).
    static func rawHash(
        password: [UInt8], salt: [UInt8], secret: [UInt8], associatedData: [UInt8],
        parameters: Argon2Parameters
    ) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: parameters.hashLength)
        var password = password
        var salt = salt
        var secret = secret
        var associatedData = associatedData
        let result = output.withUnsafeMutableBufferPointer { out in
            password.withUnsafeMutableBufferPointer { pwd in
                salt.withUnsafeMutableBufferPointer { saltBuffer in
                    secret.withUnsafeMutableBufferPointer { secretBuffer in
                        associatedData.withUnsafeMutableBufferPointer { adBuffer in
                            var context = argon2_context(
                                out: out.baseAddress, outlen: UInt32(out.count),
                                pwd: pwd.baseAddress, pwdlen: UInt32(pwd.count),
                                salt: saltBuffer.baseAddress, saltlen: UInt32(saltBuffer.count),
                                secret: secretBuffer.baseAddress, secretlen: UInt32(secretBuffer.count),
                                ad: adBuffer.baseAddress, adlen: UInt32(adBuffer.count),
                                t_cost: parameters.iterations, m_cost: parameters.memoryKiB,
                                lanes: parameters.parallelism, threads: parameters.parallelism,
                                version: UInt32(ARGON2_VERSION_13.rawValue),
                                allocate_cbk: nil, free_cbk: nil, flags: 0  // ARGON2_DEFAULT_FLAGS
                            )
                            return argon2_ctx(&context, Argon2_id)
                        }
                    }
                }
            }
        }
        guard result == ARGON2_OK.rawValue else { throw Failure(code: result) }
        return output
    }
}
