// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What the platform this process runs on offers for a device's identity, and the defaults the SDK picks from it.
///
/// Every decision is made here, from plain values, so that it is tested on every platform;
/// ``PlatformCapabilities/current`` only reads the platform (Apple frameworks on Apple platforms, nothing on
/// Linux).
///
/// | platform | device key | store | attestation |
/// |---|---|---|---|
/// | iPhone, iPad | Secure Enclave | Keychain | App Attest |
/// | Mac app (macOS, Mac Catalyst, iPhone/iPad app on Apple silicon) | Secure Enclave (software without one) | Keychain | none: development token (when configured), else unavailable |
/// | command-line tool on macOS (no app bundle, no keychain entitlement) | Secure Enclave (software without one) | encrypted file | as a Mac app |
/// | simulator | software | Keychain | development token (when configured) |
/// | Linux | software | encrypted file | development token (when configured) |
///
/// App Attest does not exist on a Mac: `DCAppAttestService.isSupported` is false for macOS apps, Mac Catalyst apps
/// and iPhone and iPad apps running on Apple silicon (and the App Attest environment entitlement is documented for
/// iOS, iPadOS, tvOS and visionOS only). A Mac app therefore signs every request with its Secure
/// Enclave device key (DPoP) but cannot prove that it is the genuine app: the member session, vault status, sync and
/// NATS work; vault enrollment and the Gate, which need an attestation, work only against a server that accepts the
/// development token (development and CI servers), and ``attestationKind(developmentTokenConfigured:)`` is
/// ``AttestationKind/unavailable`` otherwise. Whether a production server should enroll unattested Macs is the
/// server's policy (docs/ios.md).
public struct PlatformCapabilities: Sendable, Hashable {
    /// Whether this is a simulator (`targetEnvironment(simulator)`).
    public var isSimulator: Bool
    /// Whether a Secure Enclave can hold the device key (`SecureEnclave.isAvailable`).
    public var hasSecureEnclave: Bool
    /// Whether App Attest works here (`DCAppAttestService.shared.isSupported`; never in a simulator).
    public var hasAppAttest: Bool
    /// Whether the Keychain is there (Apple platforms).
    public var hasKeychain: Bool
    /// Whether this is a Mac: a macOS or Mac Catalyst process (`os(macOS)`, `targetEnvironment(macCatalyst)`). It
    /// decides the store of command-line tools and the wording of ``attestationUnavailableReason``.
    public var isMac: Bool
    /// Whether the process runs from an app or app-extension bundle (`.app`, `.appex`), which is what carries the
    /// keychain entitlement the data protection keychain needs; `false` for a command-line tool or a test runner.
    public var runsInAppBundle: Bool

    /// Creates a description of a platform (tests describe the ones they decide for).
    public init(
        isSimulator: Bool, hasSecureEnclave: Bool, hasAppAttest: Bool, hasKeychain: Bool, isMac: Bool = false,
        runsInAppBundle: Bool = true
    ) {
        self.isSimulator = isSimulator
        self.hasSecureEnclave = hasSecureEnclave
        self.hasAppAttest = hasAppAttest
        self.hasKeychain = hasKeychain
        self.isMac = isMac
        self.runsInAppBundle = runsInAppBundle
    }

    /// A Mac app (or, with `runsInAppBundle: false`, a command-line tool on a Mac): a Secure Enclave when the Mac has
    /// one (Apple silicon, T2), the Keychain, no App Attest.
    public static func mac(hasSecureEnclave: Bool = true, runsInAppBundle: Bool = true) -> PlatformCapabilities {
        PlatformCapabilities(
            isSimulator: false, hasSecureEnclave: hasSecureEnclave, hasAppAttest: false, hasKeychain: true, isMac: true,
            runsInAppBundle: runsInAppBundle)
    }

    /// Linux: no Secure Enclave, no App Attest, no Keychain.
    public static let linux = PlatformCapabilities(
        isSimulator: false, hasSecureEnclave: false, hasAppAttest: false, hasKeychain: false)

    /// Where the device key lives.
    public enum DeviceKeyKind: String, Sendable, Hashable {
        /// Created inside the Secure Enclave; the private key never leaves it.
        case secureEnclave
        /// A software P-256 key in the SDK's ``SecureStore``.
        case software
    }

    /// Where the SDK keeps its secrets.
    public enum StoreKind: String, Sendable, Hashable {
        /// The Keychain (this device only, after first unlock).
        case keychain
        /// An AES-GCM encrypted file in the app's data directory.
        case encryptedFile
    }

    /// How the device proves it runs the genuine app.
    public enum AttestationKind: String, Sendable, Hashable {
        /// Apple's App Attest.
        case appAttest
        /// The server's development token (simulators, Linux, CI; the server must list the token).
        case developmentToken
        /// None available: enrollment and the Gate fail with a typed `attestation_unavailable` error.
        case unavailable
    }

    /// The device key for this platform: the Secure Enclave on real hardware that has one, software otherwise.
    public var deviceKeyKind: DeviceKeyKind {
        hasSecureEnclave && !isSimulator ? .secureEnclave : .software
    }

    /// The store for this platform: the Keychain where there is one, an encrypted file otherwise. A process outside
    /// an app bundle on a Mac (a command-line tool) gets the encrypted file: the data protection keychain refuses
    /// processes without a keychain entitlement (`errSecMissingEntitlement`, -34018).
    public var storeKind: StoreKind {
        guard hasKeychain else { return .encryptedFile }
        return isMac && !runsInAppBundle ? .encryptedFile : .keychain
    }

    /// The attestation for this platform: App Attest where `DCAppAttestService.isSupported` says so (not in a
    /// simulator); else the development token when the app configured one; else none. Apple documents App Attest as
    /// unsupported on every Mac, so a Mac gets the development token or nothing (should a Mac ever report App Attest
    /// as supported, it is used).
    /// - Parameter developmentTokenConfigured: Whether the app passed a development token.
    public func attestationKind(developmentTokenConfigured: Bool) -> AttestationKind {
        if hasAppAttest && !isSimulator { return .appAttest }
        return developmentTokenConfigured ? .developmentToken : .unavailable
    }

    /// Why ``attestationKind(developmentTokenConfigured:)`` is ``AttestationKind/unavailable`` here, in words an
    /// app can show to its developer (never to members).
    public var attestationUnavailableReason: String {
        if isMac {
            return "App Attest does not exist on a Mac (macOS, Mac Catalyst, iPhone and iPad apps on Apple silicon): "
                + "this Mac signs with its device key but cannot attest; vault enrollment and the Gate need a server "
                + "that accepts the development token."
        }
        if isSimulator {
            return "App Attest does not work in the simulator; configure the server's development token."
        }
        return "This device cannot attest (no App Attest); configure the server's development token for simulators "
            + "and Linux."
    }
}
