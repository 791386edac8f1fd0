import type { Migration } from "../sqlite.js";

/**
 * Schema of `access.db`. Secrets are only ever hashes (`*_hash`). Deleting a credential, an
 * account or a registered client cascades to its grants and their tokens, so revocation is one
 * DELETE and takes effect at the next request.
 */
export const STATE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE redirect_domains (
        entry TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE credentials (
        client_id TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        secret_hash BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE users (
        name TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        groups_json TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE clients (
        client_id TEXT PRIMARY KEY,
        secret_hash BLOB,
        metadata_json TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- One grant per token family: a client-credentials exchange or a sign-in. Rotation keeps
      -- the grant; reuse of a rotated refresh token deletes it (and so all its tokens).
      CREATE TABLE grants (
        id INTEGER PRIMARY KEY,
        client_id TEXT NOT NULL,
        credential_id TEXT REFERENCES credentials(client_id) ON DELETE CASCADE,
        registered_client_id TEXT REFERENCES clients(client_id) ON DELETE CASCADE,
        user_name TEXT REFERENCES users(name) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        resource TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        CHECK ((credential_id IS NULL) <> (user_name IS NULL))
      );

      CREATE TABLE tokens (
        hash BLOB PRIMARY KEY,
        grant_id INTEGER NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE INDEX tokens_by_grant ON tokens(grant_id);
      CREATE INDEX tokens_by_expiry ON tokens(expires_at);

      CREATE TABLE auth_codes (
        hash BLOB PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES clients(client_id) ON DELETE CASCADE,
        user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
        redirect_uri TEXT NOT NULL,
        code_challenge TEXT NOT NULL,
        scope TEXT NOT NULL,
        resource TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER,
        grant_id INTEGER REFERENCES grants(id) ON DELETE SET NULL
      );
      CREATE INDEX grants_by_credential ON grants(credential_id);
      CREATE INDEX grants_by_user ON grants(user_name);
      CREATE INDEX grants_by_client ON grants(registered_client_id);
      CREATE INDEX codes_by_grant ON auth_codes(grant_id);
    `,
  },
];
