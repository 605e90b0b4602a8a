// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

/// The client of the Gate proxy: device-attested, DPoP-bound access to configured upstream APIs.
///
/// Flow (all steps carry a `DPoP` proof by the device key):
/// 1. `POST /attest/challenge`; on first run the attester attests a new key for that challenge and
///    `POST /attest/register` sends it with the device key's JWK;
/// 2. `POST /attest/challenge` again (challenges are single use), an assertion over it, and `POST /token`
///    (grant `app-attest`, or `development` with a ``DevelopmentTokenAttester``) returns a DPoP-bound token;
/// 3. ``performProxyRequest(path:method:body:additionalHeaders:)`` sends any method with
///    `Authorization: DPoP <token>` and a proof with `ath`.
///
/// The token is cached in memory and replaced 60 s before it expires; concurrent requests share one mint. Server
/// nonces are remembered per origin (2xx answers included) and a `use_dpop_nonce` answer (400 at `/token`, 401
/// `WWW-Authenticate: DPoP error="use_dpop_nonce"` at proxied paths) is retried once with the new nonce. A
/// proxied 401 `invalid_token` mints a new token and retries once. Errors are ``GateError``.
///
/// ```swift
/// let gate = try GateClient(
///     configuration: .init(baseURL: URL(string: "https://gate.example.com")!, teamID: "ABCDE12345",
///                          bundleID: "com.example.app"),
///     deviceKeyStore: SoftwareDeviceKeyStore(store: store),
///     attester: AppAttestAttester(service: DeviceCheckAppAttestService(), store: store),
///     store: store
/// )
/// let answer = try await gate.performProxyRequest(path: "/proxy/ai/v1/chat", method: .post, body: json,
///                                                 additionalHeaders: [.contentType: "application/json"])
/// ```
public final class GateClient: Sendable {
    /// The operation id used for proxied requests in logs.
    static let proxyOperationID = "gateProxy"

    /// The validated configuration.
    public let configuration: GateClientConfiguration
    /// The device key that signs every proof.
    public let deviceKeyStore: any DeviceKeyStore
    /// The attester that proves the app to the Gate.
    public let attester: any DeviceAttester
    /// The per-origin `DPoP-Nonce` memory.
    public let nonceStore: DPoPNonceStore
    let proofProvider: DeviceDPoPProofProvider
    let minter: GateTokenMinter
    let tokenCache: GateTokenCache

    /// Creates a client. Nothing is sent until the first request.
    /// - Parameters:
    ///   - configuration: The Gate and the app's identity.
    ///   - deviceKeyStore: The device key (``SoftwareDeviceKeyStore`` or `SecureEnclaveDeviceKeyStore`).
    ///   - attester: ``AppAttestAttester``, `SoftwareDeviceAttester` (VettIDSoftwareAttestation) or ``DevelopmentTokenAttester``.
    ///   - store: Where the registration state persists.
    ///   - nonceStore: The per-origin nonces: pass the store the app's other clients of the same server use.
    public init(
        configuration: GateClientConfiguration,
        deviceKeyStore: any DeviceKeyStore,
        attester: any DeviceAttester,
        store: any SecureStore,
        nonceStore: DPoPNonceStore = DPoPNonceStore()
    ) {
        self.configuration = configuration
        self.deviceKeyStore = deviceKeyStore
        self.attester = attester
        self.nonceStore = nonceStore
        let proofProvider = DeviceDPoPProofProvider(
            keyStore: deviceKeyStore, nonceStore: nonceStore, clock: configuration.clock)
        self.proofProvider = proofProvider
        let client = Client(
            serverURL: configuration.baseURL,
            transport: configuration.transport,
            middlewares: [
                DPoPProofMiddleware(proofProvider: proofProvider),
                GateErrorMappingMiddleware(),
                DPoPNonceMiddleware(proofProvider: proofProvider),
                LoggingMiddleware(logger: configuration.logger),
            ]
        )
        let origin = DPoPNonceStore.origin(of: configuration.baseURL) ?? configuration.baseURL.absoluteString
        let minter = GateTokenMinter(
            client: client,
            deviceKeyStore: deviceKeyStore,
            attester: attester,
            store: store,
            registrationKey: "vettid.gate.registration.\(origin)",
            logger: configuration.logger,
            clock: configuration.clock
        )
        self.minter = minter
        self.tokenCache = GateTokenCache(refreshMargin: configuration.tokenRefreshMargin, clock: configuration.clock) {
            () async throws(GateError) -> GateAccessToken in
            try await minter.mint()
        }
    }

    /// A valid access token: the cached one, or a new one (single flight) when it is missing or expires within
    /// ``GateClientConfiguration/tokenRefreshMargin``.
    public func accessToken() async throws(GateError) -> GateAccessToken {
        try await tokenCache.validToken()
    }

    /// How many token mints this client has started (diagnostics).
    public var mintCount: Int {
        get async { await tokenCache.mintCount }
    }

    /// Attests and registers a new key now (a mint does this on first use anyway).
    public func registerDevice() async throws(GateError) {
        let key: DeviceKey
        do throws(DeviceKeyError) { key = try await deviceKeyStore.deviceKey() } catch { throw GateError(error) }
        try await minter.register(key)
    }

    /// Drops the cached access token; the next request mints a new one.
    public func invalidateAccessToken() async {
        await tokenCache.invalidate()
    }

    /// Forgets the App Attest key, its registration and the cached token: the next request attests a new key.
    /// Use it when App Attest keeps failing for this key (Apple's advice after `invalidKey`).
    public func clearAppAttestKey() async throws(GateError) {
        await tokenCache.invalidate()
        do throws(DeviceAttestationError) { try await attester.resetKey() } catch { throw GateError(error) }
        try await minter.forgetRegistration()
    }

    /// The header fields an app's own HTTP stack sends with a proxied request: `Authorization: DPoP <Gate token>`
    /// (minted and cached as for ``performProxyRequest(path:method:body:additionalHeaders:)``) and a fresh `DPoP`
    /// proof for `method` and `path` with `ath` and the newest nonce the Gate gave this origin. A proof is good for
    /// one request. When the Gate answers 401 with a `DPoP-Nonce`, remember it with
    /// ``rememberNonce(from:)`` and ask again.
    /// - Parameters:
    ///   - path: The proxied path relative to the base URL (`/proxy/ai/v1/chat`; a query is allowed and is not
    ///     part of the proof).
    ///   - method: The request's method.
    /// - Throws: ``GateError`` (`invalid_request` for a path that is not relative, the minting errors, `device_key`).
    public func authorizationHeaders(path: String, method: HTTPRequest.Method) async throws(GateError) -> HTTPFields {
        let requestPath = try Self.proxyPath(path)
        let token = try await accessToken()
        let url = AuthHeaderMiddleware.requestURL(
            HTTPRequest(method: method, scheme: nil, authority: nil, path: requestPath), baseURL: configuration.baseURL)
        let proof: String
        do {
            proof = try await proofProvider.proof(method: method, url: url, accessToken: token.value)
        } catch {
            throw GateError(code: .deviceKey, message: "The DPoP proof could not be signed.", underlying: error)
        }
        var fields = HTTPFields()
        fields[.authorization] = "DPoP \(token.value)"
        fields[DPoPNonceChallenge.proofField] = proof
        return fields
    }

    /// Keeps the `DPoP-Nonce` of a Gate answer the app received itself, for the next
    /// ``authorizationHeaders(path:method:)``.
    public func rememberNonce(from response: HTTPResponse) async {
        guard let nonce = response.headerFields[DPoPNonceChallenge.nonceField] else { return }
        await nonceStore.record(nonce, for: configuration.baseURL)
    }

    /// Sends a request through the Gate proxy.
    /// - Parameters:
    ///   - path: The path relative to the base URL, for example `/proxy/ai/v1/chat?stream=false` (a query is
    ///     forwarded; it is never part of the proof's `htu`).
    ///   - method: Any HTTP method.
    ///   - body: The request body, if any.
    ///   - additionalHeaders: Extra header fields; `Authorization`, `DPoP` and `Cookie` are set by the client and
    ///     ignored here.
    /// - Returns: The upstream's answer when its status is 2xx.
    /// - Throws: ``GateError``: ``GateError/Code/server`` with status and body for any other status.
    public func performProxyRequest(
        path: String,
        method: HTTPRequest.Method = .get,
        body: Data? = nil,
        additionalHeaders: HTTPFields = [:]
    ) async throws(GateError) -> GateResponse {
        let requestPath = try Self.proxyPath(path)
        var refreshedToken = false
        while true {
            let token = try await accessToken()
            var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: requestPath)
            for field in additionalHeaders
            where field.name != .authorization && field.name != DPoPNonceChallenge.proofField && field.name != .cookie {
                request.headerFields.append(field)
            }
            request.headerFields[.authorization] = "DPoP \(token.value)"
            let (response, responseBody) = try await send(request, body: body.map { HTTPBody($0) })
            if response.status.code == 401, !refreshedToken,
                response.headerFields[values: .wwwAuthenticate].contains(where: {
                    DPoPNonceChallenge.dpopError(inWWWAuthenticate: $0) == "invalid_token"
                })
            {
                configuration.logger.debug("Gate: the access token was refused; minting a new one")
                await tokenCache.invalidate(ifCurrent: token.value)
                refreshedToken = true
                continue
            }
            var data = Data()
            do {
                if let responseBody {
                    data = try await Data(collecting: responseBody, upTo: configuration.maximumResponseBodySize)
                }
            } catch {
                throw GateError(
                    code: .invalidResponse,
                    message:
                        "The proxied response body could not be read within \(configuration.maximumResponseBodySize) bytes.",
                    status: response.status.code,
                    underlying: error
                )
            }
            guard response.status.kind == .successful else {
                throw GateError.server(response: response, body: data, operation: Self.proxyOperationID)
            }
            return GateResponse(status: response.status, headerFields: response.headerFields, body: data)
        }
    }

    /// Sends one proxied request: proof (with `ath`), nonce memory and retry, logging, transport.
    private func send(_ request: HTTPRequest, body: HTTPBody?) async throws(GateError) -> (HTTPResponse, HTTPBody?) {
        let baseURL = configuration.baseURL
        let operationID = Self.proxyOperationID
        let transport = configuration.transport
        let logging = LoggingMiddleware(logger: configuration.logger)
        let nonces = DPoPNonceMiddleware(proofProvider: proofProvider)
        let proofs = DPoPProofMiddleware(proofProvider: proofProvider)
        do {
            return try await proofs.intercept(request, body: body, baseURL: baseURL, operationID: operationID) {
                request, body, baseURL in
                try await nonces.intercept(request, body: body, baseURL: baseURL, operationID: operationID) {
                    request, body, baseURL in
                    try await logging.intercept(request, body: body, baseURL: baseURL, operationID: operationID) {
                        request, body, baseURL in
                        try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
                    }
                }
            }
        } catch let error as APIError {
            throw GateError(code: .deviceKey, message: error.description, serverCode: error.code, underlying: error)
        } catch {
            throw GateError(
                code: .network, message: "No answer from the Gate to the proxied request.", underlying: error)
        }
    }

    /// The request path for a proxied call: relative to the base URL, leading `/` added, fragment removed, no
    /// scheme or authority.
    static func proxyPath(_ path: String) throws(GateError) -> String {
        guard !path.contains("://"), !path.hasPrefix("//"), !path.isEmpty else {
            throw GateError(
                code: .invalidRequest, message: "The proxy path must be a path relative to the Gate's base URL.")
        }
        guard path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw GateError(
                code: .invalidRequest, message: "The proxy path must be percent-encoded ASCII without spaces.")
        }
        let withoutFragment = String(path.prefix { $0 != "#" })  // a fragment never goes on the wire
        return withoutFragment.hasPrefix("/") ? withoutFragment : "/" + withoutFragment
    }
}
