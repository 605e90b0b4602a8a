// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

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
        Migration(version: 5, name: "vault enrollment, transaction keys, credentials and actions") { engine in
            [
                """
                CREATE TABLE enrollment_sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    invitation_code TEXT NOT NULL UNIQUE,
                    device_jkt TEXT NOT NULL,
                    device_type TEXT NOT NULL,
                    device_id TEXT,
                    state TEXT NOT NULL,
                    attestation_required \(engine.bigint) NOT NULL,
                    attestation_challenge TEXT NOT NULL,
                    attestation_format TEXT,
                    attested_key_id TEXT,
                    security_level TEXT,
                    password_key_id TEXT NOT NULL,
                    password_hash TEXT,
                    credential_id TEXT,
                    package TEXT,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    updated_at \(engine.bigint) NOT NULL
                )
                """,
                "CREATE INDEX enrollment_sessions_user_idx ON enrollment_sessions(user_id, created_at)",
                """
                CREATE TABLE vault_credentials (
                    credential_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_jkt TEXT NOT NULL,
                    device_type TEXT NOT NULL,
                    security_level TEXT NOT NULL,
                    attestation_format TEXT,
                    attested_key_id TEXT,
                    key_version \(engine.bigint) NOT NULL,
                    sealed_key TEXT NOT NULL,
                    failed_attempts \(engine.bigint) NOT NULL,
                    locked_at \(engine.bigint),
                    revoked_at \(engine.bigint),
                    enrolled_at \(engine.bigint) NOT NULL,
                    last_auth_at \(engine.bigint),
                    updated_at \(engine.bigint) NOT NULL
                )
                """,
                "CREATE INDEX vault_credentials_user_idx ON vault_credentials(user_id)",
                """
                CREATE TABLE transaction_keys (
                    key_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    session_id TEXT,
                    credential_id TEXT,
                    public_key TEXT NOT NULL,
                    sealed_private_key TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL,
                    reserved_by TEXT,
                    reserved_until \(engine.bigint),
                    used_at \(engine.bigint)
                )
                """,
                "CREATE INDEX transaction_keys_session_idx ON transaction_keys(session_id)",
                "CREATE INDEX transaction_keys_credential_idx ON transaction_keys(credential_id, used_at)",
                """
                CREATE TABLE vault_actions (
                    id TEXT PRIMARY KEY,
                    credential_id TEXT NOT NULL REFERENCES vault_credentials(credential_id) ON DELETE CASCADE,
                    device_jkt TEXT NOT NULL,
                    key_id TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    used_at \(engine.bigint)
                )
                """,
                "CREATE INDEX vault_actions_credential_idx ON vault_actions(credential_id)",
            ]
        },
        Migration(version: 6, name: "vault deployments and sync times") { engine in
            [
                """
                CREATE TABLE vault_deployments (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    status TEXT NOT NULL,
                    owner_space TEXT NOT NULL,
                    message_space TEXT NOT NULL,
                    error_message TEXT,
                    deployed_at \(engine.bigint) NOT NULL,
                    updated_at \(engine.bigint) NOT NULL
                )
                """,
                "ALTER TABLE vault_credentials ADD COLUMN last_sync_at \(engine.bigint)",
            ]
        },
        Migration(version: 7, name: "repeatable auth execute") { _ in
            ["ALTER TABLE vault_actions ADD COLUMN result TEXT"]
        },
        Migration(version: 8, name: "nats accounts and tokens") { engine in
            [
                """
                CREATE TABLE nats_accounts (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    owner_space TEXT NOT NULL,
                    message_space TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL
                )
                """,
                """
                CREATE TABLE nats_tokens (
                    token_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_type TEXT NOT NULL,
                    device_id TEXT,
                    user_public_key TEXT NOT NULL UNIQUE,
                    issued_at \(engine.bigint) NOT NULL,
                    expires_at \(engine.bigint) NOT NULL,
                    revoked_at \(engine.bigint)
                )
                """,
                "CREATE INDEX nats_tokens_user_idx ON nats_tokens(user_id, expires_at)",
                "CREATE INDEX nats_tokens_revoked_idx ON nats_tokens(revoked_at, expires_at)",
                """
                CREATE TABLE nats_account_updates (
                    account_public_key TEXT PRIMARY KEY,
                    last_issued_at \(engine.bigint) NOT NULL
                )
                """,
            ]
        },
        Migration(version: 9, name: "member names") { _ in
            ["ALTER TABLE users ADD COLUMN first_name TEXT", "ALTER TABLE users ADD COLUMN last_name TEXT"]
        },
        Migration(version: 10, name: "security events") { engine in
            [
                """
                CREATE TABLE security_events (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    occurred_at_ms \(engine.bigint) NOT NULL,
                    client_ip TEXT,
                    client TEXT,
                    detail TEXT
                )
                """,
                "CREATE INDEX security_events_user_idx ON security_events(user_id, occurred_at_ms)",
            ]
        },
        Migration(version: 11, name: "vault data: data keys, secrets, profiles, access log") { engine in
            [
                """
                CREATE TABLE vault_data_keys (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    sealed_key TEXT NOT NULL,
                    created_at \(engine.bigint) NOT NULL
                )
                """,
                """
                CREATE TABLE vault_secrets (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name_id TEXT NOT NULL,
                    version \(engine.bigint) NOT NULL,
                    size INTEGER NOT NULL,
                    sealed TEXT NOT NULL,
                    updated_at_ms \(engine.bigint) NOT NULL,
                    PRIMARY KEY (user_id, name_id)
                )
                """,
                """
                CREATE TABLE vault_profiles (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    version \(engine.bigint) NOT NULL,
                    sealed TEXT NOT NULL,
                    updated_at_ms \(engine.bigint) NOT NULL
                )
                """,
                """
                CREATE TABLE vault_access_log (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_jkt TEXT,
                    handler_id TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    occurred_at_ms \(engine.bigint) NOT NULL
                )
                """,
                "CREATE INDEX vault_access_log_user_idx ON vault_access_log(user_id, occurred_at_ms)",
                "CREATE INDEX vault_access_log_time_idx ON vault_access_log(occurred_at_ms)",
            ]
        },
        Migration(version: 12, name: "mailboxes: devices' mailbox keys and the notice outbox") { engine in
            [
                """
                CREATE TABLE mailbox_devices (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_jkt TEXT NOT NULL,
                    mailbox_key TEXT NOT NULL,
                    registered_at_ms \(engine.bigint) NOT NULL,
                    PRIMARY KEY (user_id, device_jkt)
                )
                """,
                """
                CREATE TABLE mailbox_outbox (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at_ms \(engine.bigint) NOT NULL,
                    notice TEXT NOT NULL
                )
                """,
                "CREATE INDEX mailbox_outbox_time_idx ON mailbox_outbox(created_at_ms, id)",
            ]
        },
        Migration(version: 13, name: "devices' APNs push tokens") { engine in
            [
                """
                CREATE TABLE push_tokens (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_jkt TEXT NOT NULL,
                    token TEXT NOT NULL UNIQUE,
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    registered_at_ms \(engine.bigint) NOT NULL,
                    PRIMARY KEY (user_id, device_jkt)
                )
                """
            ]
        },
        Migration(version: 14, name: "passkeys: credentials, user handles and ceremony challenges") { engine in
            [
                """
                CREATE TABLE passkey_users (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    user_handle TEXT NOT NULL UNIQUE
                )
                """,
                """
                CREATE TABLE passkeys (
                    credential_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    public_key TEXT NOT NULL,
                    sign_count \(engine.bigint) NOT NULL,
                    backup_eligible INTEGER NOT NULL,
                    backup_state INTEGER NOT NULL,
                    transports TEXT NOT NULL,
                    name TEXT NOT NULL,
                    attestation_format TEXT NOT NULL,
                    created_at_ms \(engine.bigint) NOT NULL,
                    last_used_at_ms \(engine.bigint)
                )
                """,
                "CREATE INDEX passkeys_user_idx ON passkeys(user_id, created_at_ms)",
                """
                CREATE TABLE passkey_challenges (
                    challenge_hash TEXT PRIMARY KEY,
                    ceremony TEXT NOT NULL,
                    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    allowed_credentials TEXT NOT NULL,
                    expires_at_ms \(engine.bigint) NOT NULL
                )
                """,
                "CREATE INDEX passkey_challenges_expiry_idx ON passkey_challenges(expires_at_ms)",
            ]
        },
    ]
}
