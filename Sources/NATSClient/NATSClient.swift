/// The NATS protocol client. See the module's DocC catalog.
public enum NATSProtocol {
    /// The protocol version this client speaks in CONNECT (`1`: accepts asynchronous INFO).
    public static let version = 1
}
