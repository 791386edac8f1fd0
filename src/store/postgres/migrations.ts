/** One schema change, applied once, in order, in the migration transaction (`db.ts`). */
export interface PgMigration {
  /** 1, 2, 3...: recorded in `svc_mcp_schema` once applied. */
  readonly version: number;
  readonly sql: string;
}

/**
 * The PostgreSQL schema: the same tables as the SQLite files (`access.db`, `feedback.db`,
 * `keys.db`) in one database, plus the shared rate-limit counters. Append new versions; never
 * edit a released one. Secrets are only ever hashes (`*_hash`, `hash`); times are milliseconds
 * since the epoch (BIGINT), like the SQLite files.
 */
export const POSTGRES_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE redirect_domains (
        entry TEXT PRIMARY KEY,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE credentials (
        client_id TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        secret_hash BYTEA NOT NULL,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE users (
        name TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        groups_json TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE clients (
        client_id TEXT PRIMARY KEY,
        secret_hash BYTEA,
        metadata_json TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE grants (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        client_id TEXT NOT NULL,
        credential_id TEXT REFERENCES credentials(client_id) ON DELETE CASCADE,
        registered_client_id TEXT REFERENCES clients(client_id) ON DELETE CASCADE,
        user_name TEXT REFERENCES users(name) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        resource TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        CHECK ((credential_id IS NULL) <> (user_name IS NULL))
      );
      CREATE INDEX grants_by_credential ON grants(credential_id);
      CREATE INDEX grants_by_user ON grants(user_name);
      CREATE INDEX grants_by_client ON grants(registered_client_id);

      CREATE TABLE tokens (
        hash BYTEA PRIMARY KEY,
        grant_id BIGINT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
        expires_at BIGINT NOT NULL,
        used_at BIGINT
      );
      CREATE INDEX tokens_by_grant ON tokens(grant_id);
      CREATE INDEX tokens_by_expiry ON tokens(expires_at);

      CREATE TABLE auth_codes (
        hash BYTEA PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES clients(client_id) ON DELETE CASCADE,
        user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
        redirect_uri TEXT NOT NULL,
        code_challenge TEXT NOT NULL,
        scope TEXT NOT NULL,
        resource TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT,
        grant_id BIGINT REFERENCES grants(id) ON DELETE SET NULL
      );
      CREATE INDEX codes_by_grant ON auth_codes(grant_id);
      CREATE INDEX codes_by_expiry ON auth_codes(expires_at);

      CREATE TABLE admin_keys (
        id TEXT PRIMARY KEY,
        hash BYTEA NOT NULL,
        label TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT,
        revoked_at BIGINT
      );

      -- The feedback cursor HMAC key: random, made by the server (gen_random_uuid draws from
      -- the OS CSPRNG), so every instance signs and checks cursors with the same key.
      CREATE TABLE feedback_meta (
        key TEXT PRIMARY KEY,
        value BYTEA NOT NULL
      );
      INSERT INTO feedback_meta (key, value)
        VALUES ('cursor_secret', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));

      CREATE TABLE feedback (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('code_snippet', 'contextual', 'agent', 'thumbs_only')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'resolved', 'dismissed')),
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        path TEXT NOT NULL,
        comment TEXT NOT NULL,
        helpful BOOLEAN,
        contact TEXT,
        code TEXT,
        filename TEXT,
        lang TEXT
      );
      CREATE INDEX feedback_by_time ON feedback (project_id, created_at DESC, seq DESC);
      CREATE INDEX feedback_by_source ON feedback (project_id, source, created_at DESC, seq DESC);
      CREATE INDEX feedback_by_status ON feedback (project_id, status, created_at DESC, seq DESC);
      CREATE INDEX feedback_by_source_status ON feedback (project_id, source, status, created_at DESC, seq DESC);

      -- Hourly rate-limit counters shared by every instance (window = floor(ms / window length)).
      CREATE TABLE rate_counters (
        window_index BIGINT NOT NULL,
        key TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (window_index, key)
      );

      -- Charge every counter or none, in one round trip. Each upsert adds only while the sum
      -- stays within its limit; the row lock it takes makes concurrent charges of one counter
      -- wait for each other, so across all instances exactly "limit" units pass. A refusal
      -- raises inside the inner block, which rolls back the counters already charged.
      -- Returns 0 when all were charged, else the 1-based position of the first refused.
      CREATE FUNCTION svc_mcp_take(p_window BIGINT, p_keys TEXT[], p_units BIGINT[], p_limits BIGINT[]) RETURNS INTEGER
      LANGUAGE plpgsql AS $$
      DECLARE
        i INTEGER;
        refused INTEGER := 0;
      BEGIN
        BEGIN
          FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
            INSERT INTO rate_counters AS c (window_index, key, count)
              SELECT p_window, p_keys[i], p_units[i] WHERE p_units[i] <= p_limits[i]
              ON CONFLICT (window_index, key) DO UPDATE SET count = c.count + excluded.count
              WHERE c.count + excluded.count <= p_limits[i];
            IF NOT FOUND THEN
              refused := i;
              RAISE EXCEPTION 'svc_mcp_take refused' USING ERRCODE = 'SM001';
            END IF;
          END LOOP;
        EXCEPTION WHEN SQLSTATE 'SM001' THEN
          RETURN refused;
        END;
        RETURN 0;
      END
      $$;
    `,
  },
  {
    version: 2,
    // Rate counters need no crash safety (after a crash they start afresh, as a restarted
    // single process's do), and every search call charges the one site-wide search counter:
    // without WAL its commit does not wait for a disk flush while holding that row's lock.
    // Measured with 32 calls in flight: see docs/measurements.md, "Rate-limit counters".
    sql: "ALTER TABLE rate_counters SET UNLOGGED;",
  },
  {
    version: 3,
    // The charges of many requests in one round trip and one transaction (`counters.ts` sends
    // those that arrive while the previous batch is in the database): under load every search
    // call charges the one site-wide search counter, and one request per transaction made the
    // instances queue on that row's lock (2 workers served fewer calls than 1). Every counter of
    // the batch is locked first, in key order (two batches never deadlock), then the requests are
    // decided in turn, each all or nothing as in svc_mcp_take, and the new counts written once.
    // p_request numbers the requests 1..n, each one's charges together and in key order;
    // returns, per request, 0 when all were charged, else the 1-based position of the refused.
    sql: `
      CREATE FUNCTION svc_mcp_take_many(p_window BIGINT, p_request INTEGER[], p_keys TEXT[], p_units BIGINT[], p_limits BIGINT[]) RETURNS INTEGER[]
      LANGUAGE plpgsql AS $$
      DECLARE
        n INTEGER := coalesce(array_length(p_keys, 1), 0);
        ks TEXT[];
        counts BIGINT[];
        before BIGINT[];
        refused INTEGER[];
        i INTEGER := 1;
        j INTEGER;
        x INTEGER;
        first INTEGER;
        bad INTEGER;
        pos INTEGER;
      BEGIN
        IF n = 0 THEN
          RETURN '{}';
        END IF;
        WITH locked AS (
          INSERT INTO rate_counters AS c (window_index, key, count)
            SELECT p_window, d.key, 0 FROM (SELECT DISTINCT unnest(p_keys) AS key) d ORDER BY d.key
            ON CONFLICT (window_index, key) DO UPDATE SET count = c.count
            RETURNING c.key, c.count
        )
        SELECT array_agg(l.key ORDER BY l.key), array_agg(l.count ORDER BY l.key) INTO ks, counts FROM locked l;
        before := counts;
        refused := array_fill(0, ARRAY[p_request[n]]);
        WHILE i <= n LOOP
          first := i;
          bad := 0;
          j := i;
          WHILE j <= n AND p_request[j] = p_request[first] LOOP
            IF bad = 0 THEN
              pos := array_position(ks, p_keys[j]);
              IF counts[pos] + p_units[j] <= p_limits[j] THEN
                counts[pos] := counts[pos] + p_units[j];
              ELSE
                bad := j - first + 1;
              END IF;
            END IF;
            j := j + 1;
          END LOOP;
          IF bad > 0 THEN
            FOR x IN first .. first + bad - 2 LOOP
              pos := array_position(ks, p_keys[x]);
              counts[pos] := counts[pos] - p_units[x];
            END LOOP;
            refused[p_request[first]] := bad;
          END IF;
          i := j;
        END LOOP;
        UPDATE rate_counters c SET count = u.count
          FROM unnest(ks, counts, before) AS u(key, count, before)
          WHERE c.window_index = p_window AND c.key = u.key AND u.count <> u.before;
        RETURN refused;
      END
      $$;
    `,
  },
  {
    // Every change of the settings, however made (a state command, an edit in psql), tells the
    // servers listening (settings-listener.ts) to read them again; the payload names the
    // transaction, so a writer waiting for the servers' acknowledgements knows its own.
    version: 4,
    sql: `
      CREATE FUNCTION svc_mcp_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('svc_mcp_settings', txid_current()::text);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_settings_changed();
    `,
  },
  {
    // Every commit that deletes or changes a row a bearer check reads (a revoked token, a deleted
    // credential or user and what cascades from them, an edit in psql) tells the servers
    // listening (settings-listener.ts) to drop the tokens they keep; the payload names the
    // transaction, for the writer waiting for their acknowledgements. Only statements that
    // touched a row announce (the sweep of expired tokens that runs at each issue usually
    // deletes nothing), and a token's used_at (a refresh token's rotation) is not read by a
    // check: its update is not announced.
    version: 5,
    sql: `
      CREATE FUNCTION svc_mcp_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM changed) THEN
          PERFORM pg_notify('svc_mcp_access', txid_current()::text);
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE FUNCTION svc_mcp_access_announced() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('svc_mcp_access', txid_current()::text);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER tokens_deleted AFTER DELETE ON tokens REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER tokens_changed AFTER UPDATE OF hash, grant_id, kind, expires_at ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_announced();
      CREATE TRIGGER tokens_truncated AFTER TRUNCATE ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_announced();
      CREATE TRIGGER grants_deleted AFTER DELETE ON grants REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER grants_updated AFTER UPDATE ON grants REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER grants_truncated AFTER TRUNCATE ON grants
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_announced();
      CREATE TRIGGER credentials_deleted AFTER DELETE ON credentials REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER credentials_updated AFTER UPDATE ON credentials REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER credentials_truncated AFTER TRUNCATE ON credentials
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_announced();
      CREATE TRIGGER users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER users_updated AFTER UPDATE ON users REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_changed();
      CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
        FOR EACH STATEMENT EXECUTE FUNCTION svc_mcp_access_announced();
    `,
  },
];
