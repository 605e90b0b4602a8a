// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
public import ServiceLifecycle

/// Re-reads `<data-dir>/keys/keyring.json` every ``interval`` and hands each family's ring to the keys that use
/// it, so a `vettid-server keys rotate` (or `prune`) on any instance reaches every instance sharing the data
/// directory within one interval, without a restart. A file that cannot be read is logged and the keys in use
/// stay as they are.
public final class KeyRingReloader: Service, Sendable {
    /// How often the file is read.
    public let interval: Duration
    private let dataDirectory: String
    private let tokenSigning: TokenSigningKeys
    private let sealing: SealingKeys
    private let natsSigning: NATSSigningKeys
    private let publisher: NATSAccountPublisher?
    private let logger: Logger

    /// - Parameters:
    ///   - dataDirectory: Where `keys/keyring.json` is.
    ///   - interval: How often to read it.
    ///   - tokenSigning: The token-signing keys to update.
    ///   - sealing: The at-rest keys to update.
    ///   - natsSigning: The NATS account signing keys to update.
    ///   - publisher: Pushes the account JWT when its signing keys changed, so nats-server knows a new key before
    ///     it signs (and forgets a removed one); `nil` without nats-server.
    ///   - logger: Where reloads and unreadable files are logged.
    public init(
        dataDirectory: String, interval: Duration, tokenSigning: TokenSigningKeys, sealing: SealingKeys,
        natsSigning: NATSSigningKeys,
        publisher: NATSAccountPublisher?, logger: Logger
    ) {
        self.dataDirectory = dataDirectory
        self.interval = interval
        self.tokenSigning = tokenSigning
        self.sealing = sealing
        self.natsSigning = natsSigning
        self.publisher = publisher
        self.logger = logger
    }

    /// Reads the file once and applies it; returns the rings read.
    @discardableResult
    public func reloadNow() async throws -> KeyRings {
        let rings = try KeyRingFile.load(dataDirectory: dataDirectory)
        let before = tokenSigning.ring
        try await tokenSigning.reload(rings[.tokenSigning])
        if before != rings[.tokenSigning] {
            logger.notice(
                "token-signing keys reloaded",
                metadata: ["generations": "\(rings[.tokenSigning].generations.map(\.number))"])
        }
        if sealing.reload(rings[.atRest]) {
            logger.notice(
                "at-rest keys reloaded", metadata: ["generations": "\(rings[.atRest].generations.map(\.number))"])
        }
        if try natsSigning.reload(rings[.natsSigning]) {
            logger.notice(
                "NATS signing keys reloaded",
                metadata: ["generations": "\(rings[.natsSigning].generations.map(\.number))"])
            await publisher?.reconcile()
        }
        return rings
    }

    /// Reloads every ``interval`` until graceful shutdown.
    public func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
            } catch {
                return
            }
            do {
                try await reloadNow()
            } catch {
                logger.error("cannot reload the key ring; keeping the keys in use", metadata: ["error": "\(error)"])
            }
        }
    }
}
