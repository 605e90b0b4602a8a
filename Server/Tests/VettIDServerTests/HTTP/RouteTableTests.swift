// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Testing
import VettIDServer

@Suite struct RouteTableTests {
    @Test("a literal segment wins over a parameter at the same place, as in the router")
    func literalRoutesShadowParameters() {
        var table = RouteTable()
        table.add(.post, "/auth/passkeys/authentication")
        table.add(.patch, "/auth/passkeys/{credential_id}")
        table.add(.delete, "/auth/passkeys/{credential_id}")
        table.add(.get, "/gate/**")
        table.add(.post, "/gate/token")
        #expect(table.allowedMethods(for: "/auth/passkeys/authentication") == [.post])
        #expect(table.allowedMethods(for: "/auth/passkeys/abc") == [.patch, .delete])
        #expect(table.allowedMethods(for: "/gate/token") == [.post])
        #expect(table.allowedMethods(for: "/gate/other/path") == [.get])
        #expect(table.allowedMethods(for: "/nothing").isEmpty)
    }
}
