import OpenAPIRuntime
import VettIDAPI

/// Operations of flows this server does not serve yet: each answers 501 `not_implemented` with a JSON error,
/// as the HTTP contract allows until the flow lands (see docs/protocol.md for the status of each flow).
extension APIHandler {
    func createNatsAccount(_ input: Operations.CreateNatsAccount.Input) async throws
        -> Operations.CreateNatsAccount.Output
    {
        throw APIFailure.pending("createNatsAccount")
    }

    func createNatsToken(_ input: Operations.CreateNatsToken.Input) async throws -> Operations.CreateNatsToken.Output {
        throw APIFailure.pending("createNatsToken")
    }

    func getNatsStatus(_ input: Operations.GetNatsStatus.Input) async throws -> Operations.GetNatsStatus.Output {
        throw APIFailure.pending("getNatsStatus")
    }

    func revokeNatsToken(_ input: Operations.RevokeNatsToken.Input) async throws -> Operations.RevokeNatsToken.Output {
        throw APIFailure.pending("revokeNatsToken")
    }
}
