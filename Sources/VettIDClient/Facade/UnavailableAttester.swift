/// The attester of a platform that has none: no App Attest and no development token configured. Every call
/// fails with `unsupported`, so enrollment and the Gate report why instead of sending an empty attestation.
public struct UnavailableAttester: DeviceAttester {
    public let format = DeviceAttestationFormat.appleAppAttest

    /// Creates the attester.
    public init() {}

    public func attestedKeyID() async throws(DeviceAttestationError) -> String? { nil }

    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        throw Self.unavailable
    }

    public func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion
    {
        throw Self.unavailable
    }

    public func resetKey() async throws(DeviceAttestationError) {}

    static var unavailable: DeviceAttestationError {
        DeviceAttestationError(
            code: .unsupported,
            message:
                "This device cannot attest (no App Attest); configure the server's development token for simulators and Linux."
        )
    }
}
