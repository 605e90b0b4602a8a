import VettIDServer

/// The `vettid` command-line tool.
public enum VettIDCLIInfo {
    public static let serverName = VettIDServerInfo.name
}
