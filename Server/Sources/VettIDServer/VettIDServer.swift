/// The VettID reference backend.
public enum VettIDServerInfo {
    /// The server's product name, sent in logs and the health endpoint.
    public static let name = "vettid-server"
}
