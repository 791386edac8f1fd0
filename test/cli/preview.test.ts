import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { PoolEvent } from "../../src/engine/shell/pool-events.js";
import { POOL_CHANNEL_NAME } from "../../src/engine/shell/shell-host.js";
import { fixture } from "../helpers/paths.js";

/** Starts `svc-mcp preview` in this process: its origin, and how to stop it (resolving to its exit code). */
async function startPreview(state: string): Promise<{ at: string; stop: () => Promise<number> }> {
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
  const at = await Promise.race([origin, run.then((code) => Promise.reject(new Error(`exited ${code}: ${stderr}`)))]);
  return {
    at,
    stop: () => {
      stop();
      return run;
    },
  };
}

/**
 * `svc-mcp preview` serves the site for people (and MCP) on a socket, says where, and stops
 * cleanly on the stop signal. `--no-open` keeps it from starting a browser in the test.
 */
it("serves the preview, prints its address, and stops on the signal", async () => {
  const state = mkdtempSync(join(tmpdir(), "svc-preview-cli-"));
  const { at, stop } = await startPreview(state);
  try {
    const home = await fetch(`${at}/quickstart`, { headers: { accept: "text/html" } });
    const html = await home.text();
    expect([home.status, html.includes("<h1>Quickstart</h1>"), html.includes('data-testid="agent-toggle"')]).toEqual([200, true, true]);
    const search = (await (await fetch(`${at}/_svc/preview/search?query=bucket`)).json()) as { results: { path: string }[] };
    expect(search.results.length).toBeGreaterThan(0);
  } finally {
    expect(await stop()).toBe(0);
    rmSync(state, { recursive: true, force: true });
  }
});

/**
 * The shell box runs its commands in a worker of a pool, as `serve` does: before, it ran them in
 * the preview's own thread, and a command that never yields (a sed doubling its pattern space,
 * a jq or awk step on a huge value) stopped every page until it ended, and grew the server to
 * 4.3 GB (issue 25). Asserted by order of events: the runaway has started in a worker, a page
 * is then answered, and only then the runaway (at its limit). No time is measured.
 */
it("answers pages while a runaway command of the shell box runs", async () => {
  const state = mkdtempSync(join(tmpdir(), "svc-preview-runaway-"));
  const order: string[] = [];
  let started: () => void = () => {};
  const inWorker = new Promise<void>((resolve) => (started = resolve));
  const onEvent = (event: unknown): void => {
    if ((event as PoolEvent).t === "start") started();
  };
  subscribe(POOL_CHANNEL_NAME, onEvent);
  const { at, stop } = await startPreview(state);
  try {
    const shell = fetch(`${at}/_svc/preview/shell`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ command: "awk 'BEGIN { while (1) i++ }'" }),
    }).then(async (r) => {
      order.push("shell answered");
      return (await r.json()) as unknown;
    });
    // In this thread, the shell would answer first, and no pool would have started anything.
    await Promise.race([inWorker, shell.then(() => Promise.reject(new Error("the runaway ended before any shell worker started a command")))]);
    order.push("runaway started");
    const page = await fetch(`${at}/quickstart`, { headers: { accept: "text/html" } });
    const html = await page.text();
    order.push("page answered");
    expect([page.status, html.includes("<h1>Quickstart</h1>")]).toEqual([200, true]);
    const answer = await shell;
    expect(order).toEqual(["runaway started", "page answered", "shell answered"]);
    // Ended at the call's work limit (4 million steps), the same on any machine (issue 25). An
    // awk loop, not jq's: 4 million jq steps took 3.3 s of the 5 s CPU limit on a slow machine.
    const stderr = "bash: awk: work limit reached (4000000 steps per call; a limit of the docs shell: do less in one call)\n";
    expect(answer).toEqual({ stdout: "", stderr, exitCode: 124, truncated: false, text: `${stderr}[exit code 124]` });
  } finally {
    unsubscribe(POOL_CHANNEL_NAME, onEvent);
    expect(await stop()).toBe(0);
    rmSync(state, { recursive: true, force: true });
  }
});
