import Testing
import VettIDClient

/// The platform defaults the SDK picks, decided for every combination a device, a simulator, a Mac or Linux can
/// present.
@Suite("Platform defaults")
struct PlatformCapabilitiesTests {
    @Test(arguments: [false, true], [false, true])
    func decisions(simulator: Bool, secureEnclave: Bool) {
        for appAttest in [false, true] {
            for keychain in [false, true] {
                let platform = PlatformCapabilities(
                    isSimulator: simulator, hasSecureEnclave: secureEnclave, hasAppAttest: appAttest,
                    hasKeychain: keychain)
                #expect(platform.deviceKeyKind == (secureEnclave && !simulator ? .secureEnclave : .software))
                #expect(platform.storeKind == (keychain ? .keychain : .encryptedFile))
                let withToken = platform.attestationKind(developmentTokenConfigured: true)
                let withoutToken = platform.attestationKind(developmentTokenConfigured: false)
                if appAttest && !simulator {
                    #expect(
                        withToken == .appAttest, "a real device attests with App Attest even with a token configured")
                    #expect(withoutToken == .appAttest)
                } else {
                    #expect(withToken == .developmentToken)
                    #expect(withoutToken == .unavailable)
                }
            }
        }
    }

    @Test func linuxIsSoftwareKeysAnEncryptedFileAndTheDevelopmentToken() {
        let linux = PlatformCapabilities.current
        #expect(linux == .linux)
        #expect(linux.deviceKeyKind == .software)
        #expect(linux.storeKind == .encryptedFile)
        #expect(linux.attestationKind(developmentTokenConfigured: true) == .developmentToken)
        #expect(linux.attestationKind(developmentTokenConfigured: false) == .unavailable)
    }

    @Test func aSecureEnclaveKeyAskedForWhereThereIsNoneIsASoftwareKey() {
        #expect(DeviceKeyStores.make(.secureEnclave, store: InMemorySecureStore()) is SoftwareDeviceKeyStore)
        #expect(DeviceKeyStores.make(.software, store: InMemorySecureStore()) is SoftwareDeviceKeyStore)
        #expect(SessionBinding.bearer.deviceKeyStore(store: InMemorySecureStore()) == nil)
        let simulator = PlatformCapabilities(
            isSimulator: true, hasSecureEnclave: true, hasAppAttest: false, hasKeychain: true)
        #expect(
            SessionBinding.platformDeviceKey.deviceKeyStore(store: InMemorySecureStore(), platform: simulator)
                is SoftwareDeviceKeyStore)
    }
}
