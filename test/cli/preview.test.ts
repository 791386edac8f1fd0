import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { fixture } from "../helpers/paths.js";

/**
 * `svc-mcp preview` serves the site for people (and MCP) on a socket, says where, and stops
 * cleanly on the stop signal. `--no-open` keeps it from starting a browser in the test.
 */
it("serves the preview, prints its address, and stops on the signal", { timeout: 120_000 }, async () => {
  const state = mkdtempSync(join(tmpdir(), "svc-preview-cli-"));
  let stop: () => void = () => {};
  let stderr = "";
  let announced: (origin: string) => void = () => {};
  const origin = new Promise<string>((resolve) => (announced = resolve));
  const run = main(["preview", "--no-open", "--no-fetch-remote", "--port", "0", "--dir", fixture("demo"), "--state", state], {
    stdout: () => {},
    stderr: (t) => {
      stderr += t;
      const m = /preview: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
      if (m !== null) announced(m[1] as string);
    },
    cwd: fixture("demo"),
    env: {},
    stopSignal: new Promise<void>((resolve) => (stop = resolve)),
  });
  try {
    const at = await Promise.race([origin, run.then((code) => Promise.reject(new Error(`exited ${code}: ${stderr}`)))]);
    const home = await fetch(`${at}/quickstart`, { headers: { accept: "text/html" } });
    const html = await home.text();
    expect([home.status, html.includes("<h1>Quickstart</h1>"), html.includes('data-testid="agent-toggle"')]).toEqual([200, true, true]);
    const search = (await (await fetch(`${at}/_svc/preview/search?query=bucket`)).json()) as { results: { path: string }[] };
    expect(search.results.length).toBeGreaterThan(0);
  } finally {
    stop();
    expect(await run).toBe(0);
    rmSync(state, { recursive: true, force: true });
  }
});
