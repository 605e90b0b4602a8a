// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDTestSupport

@Suite struct TestFixturesTests {
    @Test("the fixture directory is ../shared/fixtures beside the root package, and it reads files")
    func readsSharedFixtures() throws {
        #expect(TestFixtures.directory.path.hasSuffix("/shared/fixtures"))
        let creds = try TestFixtures.string("nats/TestUser.creds")
        #expect(creds.contains("BEGIN NATS USER JWT"))
        #expect(try TestFixtures.data("nats/TestUser.creds") == Data(creds.utf8))
        #expect(try TestFixtures.jsonObject("nats/TestUser.json")["jwt"] is String)
    }

    @Test("a missing fixture throws an error that names it and where it was looked for")
    func missingFixtureFails() {
        #expect {
            try TestFixtures.data("no/such-fixture.json")
        } throws: { error in
            guard let error = error as? TestFixtures.FixtureError else { return false }
            return error.relativePath == "no/such-fixture.json"
                && error.description.contains("no/such-fixture.json is missing")
                && error.description.contains(TestFixtures.url("no/such-fixture.json").path)
        }
    }

    @Test("a fixture of the wrong shape names the fixture and the type")
    func undecodableFixtureFails() {
        struct Unrelated: Decodable { let field_that_does_not_exist: Int }
        #expect {
            try TestFixtures.decode(Unrelated.self, from: "nats/TestUser.json")
        } throws: { error in
            (error as? TestFixtures.FixtureError)?.description.contains("does not decode as Unrelated") == true
        }
    }
}
