// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The error of a fixture that could not be loaded.

public import Foundation

extension TestFixtures {
    /// A fixture that could not be loaded: which one, where it was looked for, and what was wrong.
    ///
    /// Thrown out of a test, it fails the test with its ``description``.
    public struct FixtureError: Error, CustomStringConvertible {
        /// The path the test asked for, relative to ``TestFixtures/directory``.
        public let relativePath: String
        /// The full path that was read.
        public let file: URL
        /// What was wrong with the file, such as `"is missing"`.
        public let problem: String

        /// Creates an error for the fixture at `relativePath` (read from `file`).
        public init(relativePath: String, file: URL, problem: String) {
            self.relativePath = relativePath
            self.file = file
            self.problem = problem
        }

        /// `fixture <relative path> <problem>: <full path>`, and where fixtures are read from.
        public var description: String {
            "fixture \(relativePath) \(problem): \(file.path) (fixtures are read from ../shared/fixtures, beside the "
                + "directory of the root Package.swift)"
        }
    }
}
