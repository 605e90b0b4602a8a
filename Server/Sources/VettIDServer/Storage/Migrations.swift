/// Every schema migration of the server, oldest first. Never edit a released migration: append a new one.
enum Migrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "members and sessions") { engine in
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL,
                    updated_at \(engine.bigint) NOT NULL
                )
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    dpop_jkt TEXT,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    revoked_at \(engine.bigint),
                    revoked_reason TEXT
                )
                """,
                "CREATE INDEX sessions_user_idx ON sessions(user_id)",
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    used_at \(engine.bigint)
                )
                """,
                "CREATE INDEX refresh_tokens_session_idx ON refresh_tokens(session_id)",
            ]
        },
        Migration(version: 2, name: "device invitations") { engine in
            [
                """
                CREATE TABLE invitations (
                    code TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    label TEXT,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    used_at \(engine.bigint),
                    revoked_at \(engine.bigint)
                )
                """,
                "CREATE INDEX invitations_user_idx ON invitations(user_id, created_at)",
            ]
        },
        Migration(version: 3, name: "DPoP proof replay cache") { engine in
            [
                """
                CREATE TABLE dpop_replay (
                    key_hash TEXT PRIMARY KEY,
                    expires_at \(engine.bigint) NOT NULL
                )
                """,
                "CREATE INDEX dpop_replay_expiry_idx ON dpop_replay(expires_at)",
            ]
        },
        Migration(version: 4, name: "Gate attestation challenges and attested keys") { engine in
            [
                """
                CREATE TABLE attestation_challenges (
                    challenge_hash TEXT PRIMARY KEY,
                    purpose TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    used_at \(engine.bigint)
                )
                """,
                "CREATE INDEX attestation_challenges_expiry_idx ON attestation_challenges(expires_at)",
                """
                CREATE TABLE attested_keys (
                    key_id TEXT PRIMARY KEY,
                    public_key TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    receipt TEXT NOT NULL,
                    counter \(engine.bigint) NOT NULL,
                    device_jkt TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL,
                    last_used_at \(engine.bigint)
                )
                """,
            ]
        },
    ]
}
