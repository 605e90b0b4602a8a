// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The parameter section of an Argon2id PHC string, used to decide whether a stored hash needs a rehash.
struct PHCString: Equatable {
    let algorithm: String
    let version: Int
    let memoryKiB: UInt32
    let iterations: UInt32
    let parallelism: UInt32

    /// Parses `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>`; `nil` when it is not of that shape.
    init?(_ text: String) {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id",
            fields[2].hasPrefix("v="), let version = Int(fields[2].dropFirst(2))
        else { return nil }
        var values: [Substring: UInt32] = [:]
        for pair in fields[3].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = UInt32(parts[1]) else { return nil }
            values[parts[0]] = value
        }
        guard let m = values["m"], let t = values["t"], let p = values["p"] else { return nil }
        self.algorithm = "argon2id"
        self.version = version
        self.memoryKiB = m
        self.iterations = t
        self.parallelism = p
    }

    /// Whether the string was produced with exactly these parameters.
    func matches(_ parameters: Argon2Parameters) -> Bool {
        version == 0x13 && memoryKiB == parameters.memoryKiB && iterations == parameters.iterations
            && parallelism == parameters.parallelism
    }
}
