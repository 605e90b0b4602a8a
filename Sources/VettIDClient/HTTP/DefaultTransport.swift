// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import OpenAPIRuntime

#if canImport(OpenAPIAsyncHTTPClient)
    import OpenAPIAsyncHTTPClient
#elseif canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#endif

/// The platform's default HTTP transport for the generated client.
///
/// AsyncHTTPClient (shared client) on Linux; `URLSession.shared` on Apple platforms. Pass your own
/// `ClientTransport` in the configuration to use another one (or a fake in tests).
public enum DefaultTransport {
    /// Makes the default transport for this platform.
    public static func make() -> any ClientTransport {
        #if canImport(OpenAPIAsyncHTTPClient)
            return AsyncHTTPClientTransport()
        #elseif canImport(OpenAPIURLSession)
            return URLSessionTransport()
        #else
            #error("VettIDClient needs OpenAPIAsyncHTTPClient (Linux) or OpenAPIURLSession (Apple platforms).")
        #endif
    }
}
