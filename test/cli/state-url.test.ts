import { describe, expect, it } from "vitest";
import { parseStateLocation, redactUrl } from "../../src/store/location.js";
import { runCli } from "../helpers/cli.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";

describe("--state and SVC_STATE_URL", () => {
  it("reads a folder, or a postgres:// or postgresql:// URL; shows URLs without their password", () => {
    expect(parseStateLocation("state", "/srv")).toEqual({ kind: "folder", path: "/srv/state", label: "/srv/state" });
    expect(parseStateLocation("postgres://u@db:5432/svc", "/srv")).toEqual({ kind: "postgres", url: "postgres://u@db:5432/svc", label: "postgres://u@db:5432/svc" });
    expect(parseStateLocation("postgresql://u:pw@db/svc", "/srv")).toEqual({ kind: "postgres", url: "postgresql://u:pw@db/svc", label: "postgresql://u:***@db/svc" });
    expect(redactUrl("postgres://u:s3cret@h/db")).toBe("postgres://u:***@h/db");
  });

  it("refuses a URL it does not support, and a PostgreSQL URL without a database (exit 2, before opening anything)", async () => {
    expect(await runCli(["users", "list", "--state", "mysql://root@db/svc"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --state mysql://root@db/svc: unsupported state URL scheme "mysql://"; give a folder, or a PostgreSQL URL such as postgres://user@host:5432/db\n',
    });
    expect(await runCli(["keys", "list", "--state", "postgres://u:pw@db"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --state postgres://u:***@db: a PostgreSQL URL names a host and a database: postgres://user@host:5432/db\n",
    });
    expect(await runCli(["mcp", "status"], { env: { SVC_STATE_URL: "redis://cache:6379" } })).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: SVC_STATE_URL redis://cache:6379: unsupported state URL scheme "redis://"; give a folder, or a PostgreSQL URL such as postgres://user@host:5432/db\n',
    });
  });

  it("says which database it cannot reach (exit 1), without its password", async () => {
    expect(await runCli(["users", "list", "--state", "postgres://u:pw@127.0.0.1:1/svc"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-mcp: cannot open the PostgreSQL state database postgres://u:***@127.0.0.1:1/svc: connect ECONNREFUSED 127.0.0.1:1\n",
    });
  });
});

describePostgres("state commands on PostgreSQL", () => {
  it("every state command works on one database; --state and SVC_STATE_URL name the same state", async () => {
    const db = await freshDatabase();
    try {
      const flag = ["--state", db.url];
      const env = { SVC_STATE_URL: db.url };
      expect(await runCli(["users", "add", "alice", "--groups", "eng", "--password-stdin", ...flag], { stdin: "correct horse\n" })).toMatchObject({ code: 0, stdout: "Added user alice (groups: eng).\n" });
      expect((await runCli(["users", "list", "--json"], { env })).stdout).toMatch(/^\[\s*\{\s*"name": "alice",\s*"groups": \[\s*"eng"\s*\]/);
      expect(await runCli(["mcp", "auth", "partial", ...flag])).toMatchObject({ code: 0 });
      const status = JSON.parse((await runCli(["mcp", "status", "--json"], { env })).stdout) as Record<string, unknown>;
      expect(status).toEqual({ authMode: "partial", mcp: "disabled", toggle: null, stateDir: db.url });
      expect(await runCli(["redirect-domains", "add", "https://app.example", ...flag])).toMatchObject({ code: 0 });
      expect((await runCli(["redirect-domains", "list"], { env })).stdout).toBe("https://app.example\n");
      expect((await runCli(["credentials", "create", "--label", "ci", ...flag])).code).toBe(0);
      expect((await runCli(["credentials", "list"], { env })).stdout).toMatch(/^LABEL +CLIENT ID +CREATED\nci +mcpc_/);
      const key = (await runCli(["keys", "create", "--label", "dash", ...flag])).stdout.trim();
      expect((await runCli(["keys", "list", "--json"], { env })).stdout).toContain(`"id": "${key.slice(4, 16)}"`);
      expect(await runCli(["feedback", "list"], { env })).toEqual({ code: 0, stdout: "No feedback matches.\n", stderr: "" });
    } finally {
      await db.drop();
    }
  });
});
