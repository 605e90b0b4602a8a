// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import OpenAPIRuntime
import PostgresNIO
import SQLiteNIO
import VettIDCore
import _ConnectionPoolModule

/// The store could not take the request: PostgreSQL is unreachable or restarting, or SQLite cannot write
/// (disk full, I/O error). Answered as 503 `store_unavailable` with `Retry-After`; nothing was committed by the
/// failed statement (each flow writes in one transaction), and the next request works once the store is back.
public struct StoreUnavailable: Error, Sendable, CustomStringConvertible {
    /// Why, for the log (never sent to clients).
    public let detail: String
    public var description: String { "store unavailable: \(detail)" }

    /// Whether `error` means the store is out (as opposed to a bug or a constraint violation), and why.
    static func classify(_ error: any Error) -> StoreUnavailable? {
        switch error {
        case let unavailable as StoreUnavailable:
            return unavailable
        case let wrapped as ServerError:
            return classify(wrapped.underlyingError)
        case let pool as ConnectionPoolError:
            return StoreUnavailable(detail: "PostgreSQL pool: \(pool)")
        case let postgres as PSQLError:
            let connectionCodes: [PSQLError.Code] = [
                .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            ]
            if connectionCodes.contains(postgres.code) {
                return StoreUnavailable(detail: "PostgreSQL connection: \(postgres.code)")
            }
            // Class 08 (connection exception), 57P01-57P03 (shutting down, crash shutdown, cannot connect now),
            // 53xxx (insufficient resources: disk full, out of memory, too many connections).
            if postgres.code == .server, let state = postgres.serverInfo?[.sqlState],
                state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) || state.hasPrefix("53")
            {
                return StoreUnavailable(detail: "PostgreSQL \(state)")
            }
            return nil
        case let sqlite as SQLiteError:
            switch sqlite.reason {
            case .full, .ioError, .busy, .locked, .busyTimeout, .cantOpen, .readOnly, .ioErrorFailedWrite,
                .ioErrorFailedSync, .ioErrorFailedDirSync, .ioErrorFailedTruncate, .ioErrorFailedRead,
                .ioErrorIncompleteRead, .ioErrorNoMemory:
                return StoreUnavailable(detail: "SQLite \(sqlite.reason)")
            default:
                return nil
            }
        case is NIOConnectionError, is ChannelError:
            return StoreUnavailable(detail: "\(type(of: error))")
        default:
            return nil
        }
    }
}
