// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
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

    @Test("a Mac (no App Attest): a Secure Enclave key, the Keychain, the development token or nothing")
    func macApp() {
        let mac = PlatformCapabilities.mac()
        #expect(!mac.hasAppAttest && mac.isMac)
        #expect(mac.deviceKeyKind == .secureEnclave)
        #expect(mac.storeKind == .keychain)
        #expect(mac.attestationKind(developmentTokenConfigured: true) == .developmentToken)
        #expect(mac.attestationKind(developmentTokenConfigured: false) == .unavailable)
        #expect(mac.attestationUnavailableReason.contains("Mac"))
        #expect(PlatformCapabilities.mac(hasSecureEnclave: false).deviceKeyKind == .software)
    }

    @Test("a command-line tool on a Mac gets the encrypted file: the data protection keychain needs an entitlement")
    func macTool() {
        let tool = PlatformCapabilities.mac(runsInAppBundle: false)
        #expect(tool.storeKind == .encryptedFile)
        #expect(tool.deviceKeyKind == .secureEnclave)
        let iPhoneTests = PlatformCapabilities(
            isSimulator: false, hasSecureEnclave: true, hasAppAttest: true, hasKeychain: true, runsInAppBundle: false)
        #expect(iPhoneTests.storeKind == .keychain, "only a Mac decides the store by its bundle")
    }

    @Test("the front door on a Mac: no App Attest attester, an unavailable one that says why, or the development token")
    @MainActor
    func facadeOnAMac() async throws {
        let mac = try VettIDConfiguration(
            baseURL: URL(string: "https://api.example.com")!, teamID: "ABCDE12345", bundleID: "com.example.app",
            storage: .store(InMemorySecureStore()), platform: .mac())
        let vettid = try VettID(configuration: mac)
        let attester = try #require(vettid.attester as? UnavailableAttester)
        do throws(DeviceAttestationError) {
            _ = try await attester.attestKey(challenge: [1], deviceKeyThumbprint: [2])
            Issue.record("expected unsupported")
        } catch {
            #expect(error.code == .unsupported)
            #expect(error.message.contains("Mac"))
        }
        let withToken = try VettIDConfiguration(
            baseURL: URL(string: "https://api.example.com")!, teamID: "ABCDE12345", bundleID: "com.example.app",
            developmentToken: "dev", storage: .store(InMemorySecureStore()), platform: .mac())
        #expect(try VettID(configuration: withToken).attester is DevelopmentTokenAttester)
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
