public import ArgumentParser

/// The `vettid` command-line tool: the reference client for terminals.
public struct VettIDCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vettid",
        abstract: "The VettID reference client, and a way to run the whole system locally.",
        subcommands: [
            DemoCommand.self, ServerCommand.self, RegisterCommand.self, LoginCommand.self, WhoamiCommand.self,
            LogoutCommand.self, InviteCommand.self, EnrollCommand.self, VaultAuthCommand.self, VaultCommand.self, NATSCommand.self,
            GateCommand.self,
        ]
    )

    public init() {}
}

/// `vettid server`: the backend, exactly as `vettid-server serve`.
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the VettID backend (same options as vettid-server)."
    )

    @OptionGroup var options: ServerOptions

    public init() {}

    public func run() async throws {
        var serve = ServeCommand()
        serve.options = options
        try await serve.run()
    }
}
