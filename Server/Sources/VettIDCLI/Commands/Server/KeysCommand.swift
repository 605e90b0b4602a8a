// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Crypto
import Foundation
import Logging
import VettIDServer

/// `vettid-server keys`: the generations of the rotating keys, and rotating them without downtime.
public struct KeysCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, rotate and prune the server's rotating keys (token signing, NATS signing, at rest).",
        discussion: """
            The generations live in <data-dir>/keys/keyring.json, which every instance sharing the data directory \
            re-reads every key_reload_seconds (10). A rotation adds a generation that verifies at once and signs \
            (or seals) after key_activation_delay_seconds (60), when every instance has it. See \
            docs/operations.md, "Rotating keys".
            """,
        subcommands: [List.self, Rotate.self, Prune.self, Remove.self, Reseal.self]
    )

    public init() {}

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every family's generations and their state.")
        @OptionGroup var options: ServerOptions

        func run() throws {
            let configuration = try options.loadConfiguration()
            let rings = try KeyRingFile.load(dataDirectory: configuration.dataDirectory)
            let now = Int64(Date().timeIntervalSince1970)
            for family in KeyFamily.allCases {
                print(family.rawValue)
                let ring = rings[family]
                for generation in ring.generations {
                    print("  \(generation.number)  \(KeyRingDescription.state(of: generation, in: ring, now: now))")
                }
            }
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a generation to a family; it becomes current after the activation delay.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "token-signing, nats-signing or at-rest.") var family: KeyFamily
        @Option(
            name: .customLong("activation-delay"),
            help: "Seconds until the new generation is current (default key_activation_delay_seconds).")
        var activationDelay: Int64?

        func run() throws {
            let configuration = try options.loadConfiguration()
            let now = Int64(Date().timeIntervalSince1970)
            let delay = activationDelay ?? configuration.keyActivationDelay.components.seconds
            let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            let added = try KeyRingFile.update(dataDirectory: configuration.dataDirectory) { rings in
                rings[family] = try rings[family].rotated(secret: secret, now: now, activationDelay: delay)
                return rings[family].generations.last!
            }
            print("\(family.rawValue): generation \(added.number) added; current in \(delay) s")
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop the generations superseded longer ago than anything they signed can live.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "token-signing or nats-signing.") var family: KeyFamily

        func run() throws {
            let configuration = try options.loadConfiguration()
            guard let retention = configuration.keyRetention(of: family) else {
                throw ValidationError("\(family.rawValue) generations go with `keys reseal`, not by age")
            }
            let now = Int64(Date().timeIntervalSince1970)
            let removed = try KeyRingFile.update(dataDirectory: configuration.dataDirectory) { rings in
                let (ring, removed) = rings[family].pruned(now: now, retention: retention.components.seconds)
                rings[family] = ring
                return removed
            }
            print(
                removed.isEmpty
                    ? "\(family.rawValue): nothing to prune"
                    : "\(family.rawValue): removed generation \(removed.map(String.init).joined(separator: ", "))")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop one superseded generation at once (a key thought compromised): what it signed stops "
                + "verifying within key_reload_seconds.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "token-signing or nats-signing.") var family: KeyFamily
        @Argument(help: "The generation number.") var generation: Int

        func run() throws {
            let configuration = try options.loadConfiguration()
            guard configuration.keyRetention(of: family) != nil else {
                throw ValidationError("\(family.rawValue) generations go with `keys reseal`, not by hand")
            }
            let now = Int64(Date().timeIntervalSince1970)
            try KeyRingFile.update(dataDirectory: configuration.dataDirectory) { rings in
                rings[family] = try rings[family].removing(generation, now: now)
            }
            print("\(family.rawValue): removed generation \(generation)")
        }
    }
}

extension KeyFamily: ExpressibleByArgument {}

extension KeysCommand {
    struct Reseal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seal every stored secret again under the current at-rest generation, then drop the "
                + "generations nothing names any more.")
        @OptionGroup var options: ServerOptions

        func run() async throws {
            let configuration = try options.loadConfiguration()
            let now = Int64(Date().timeIntervalSince1970)
            let ring = try KeyRingFile.load(dataDirectory: configuration.dataDirectory)[.atRest]
            if let pending = ring.generations.last, pending.activatesAt > now {
                throw ValidationError(
                    "at-rest generation \(pending.number) becomes current in \(pending.activatesAt - now) s; "
                        + "reseal after that, when every instance seals with it")
            }
            let logger = Logger.process(label: "vettid-server", level: .warning)
            let components = try await ServerComponents.make(configuration: configuration, logger: logger)
            do {
                let resealer = AtRestResealer(store: components.store, keys: components.sealingKeys)
                let report = try await resealer.reseal()
                let census = try await resealer.census()
                let current = ring.current(at: now).number
                let unused = census.filter { $0.key != current && $0.value == 0 }.map(\.key).sorted()
                if !unused.isEmpty {
                    try KeyRingFile.update(dataDirectory: configuration.dataDirectory) { rings in
                        for generation in unused { rings[.atRest] = try rings[.atRest].removing(generation, now: now) }
                    }
                }
                try await components.shutdownStores()
                print("at-rest: resealed \(report.resealed) value(s) under generation \(current)")
                if !unused.isEmpty {
                    print("at-rest: removed generation \(unused.map(String.init).joined(separator: ", "))")
                }
                for (generation, count) in census.sorted(by: { $0.key < $1.key })
                where generation != current && count > 0 {
                    print("at-rest: \(count) value(s) still under generation \(generation); run reseal again")
                }
                if report.unreadable > 0 {
                    print(
                        "at-rest: \(report.unreadable) value(s) do not open with any generation held (left as they are)"
                    )
                }
            } catch {
                try? await components.shutdownStores()
                throw error
            }
        }
    }
}

/// How `keys list` describes a generation.
enum KeyRingDescription {
    static func state(of generation: KeyRing.Generation, in ring: KeyRing, now: Int64) -> String {
        if generation.activatesAt > now {
            return "pending: verifies now, current in \(generation.activatesAt - now) s"
        }
        if ring.current(at: now) == generation { return "current since \(timestamp(generation.activatesAt))" }
        let superseded = ring.supersededAt(generation, now: now) ?? now
        return "verifies only: superseded \(now - superseded) s ago"
    }

    private static func timestamp(_ seconds: Int64) -> String {
        seconds == 0
            ? "the first start"
            : ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
