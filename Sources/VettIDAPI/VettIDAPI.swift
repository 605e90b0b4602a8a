/// Types and client generated from `openapi.yaml`; regenerate with `scripts/generate-openapi`.
public enum VettIDAPIInfo {
    /// The API version this module was generated from.
    public static let version = "1.0.0"
}
