/// What the platform this process runs on offers for a device's identity, and the defaults the SDK picks from it.
///
/// Every decision is made here, from plain values, so that it is tested on every platform;
/// ``PlatformCapabilities/current`` only reads the platform (Apple frameworks on Apple platforms, nothing on
/// Linux).
///
/// | platform | device key | store | attestation |
/// |---|---|---|---|
/// | iPhone, iPad, Mac with a Secure Enclave | Secure Enclave | Keychain | App Attest (when supported) |
/// | simulator | software | Keychain | development token (when configured) |
/// | Linux, Mac without a Secure Enclave | software | encrypted file (Linux) or Keychain | development token (when configured) |
public struct PlatformCapabilities: Sendable, Hashable {
    /// Whether this is a simulator (`targetEnvironment(simulator)`).
    public var isSimulator: Bool
    /// Whether a Secure Enclave can hold the device key (`SecureEnclave.isAvailable`).
    public var hasSecureEnclave: Bool
    /// Whether App Attest works here (`DCAppAttestService.shared.isSupported`; never in a simulator).
    public var hasAppAttest: Bool
    /// Whether the Keychain is there (Apple platforms).
    public var hasKeychain: Bool

    /// Creates a description of a platform (tests describe the ones they decide for).
    public init(isSimulator: Bool, hasSecureEnclave: Bool, hasAppAttest: Bool, hasKeychain: Bool) {
        self.isSimulator = isSimulator
        self.hasSecureEnclave = hasSecureEnclave
        self.hasAppAttest = hasAppAttest
        self.hasKeychain = hasKeychain
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

    /// The store for this platform: the Keychain where there is one, an encrypted file otherwise.
    public var storeKind: StoreKind {
        hasKeychain ? .keychain : .encryptedFile
    }

    /// The attestation for this platform: App Attest on a device that supports it; else the development token
    /// when the app configured one; else none.
    /// - Parameter developmentTokenConfigured: Whether the app passed a development token.
    public func attestationKind(developmentTokenConfigured: Bool) -> AttestationKind {
        if hasAppAttest && !isSimulator { return .appAttest }
        return developmentTokenConfigured ? .developmentToken : .unavailable
    }
}
