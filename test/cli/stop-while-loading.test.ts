import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * Ctrl-C (or SIGTERM) while a large site loads stops the process there (issue 25, item 8): no
 * loading on for seconds, no banner of a server that is going away. The signal is sent once the
 * load has announced itself ("loading N page files"), so it surely arrives during the load; the
 * process must end by that signal, having printed nothing more.
 */

let repo: { dir: string; cleanup: () => void };
let stateDir: string;
beforeAll(() => {
  const files: Record<string, string> = { "docs.json": JSON.stringify({ name: "Big", navigation: { groups: [{ group: "All", pages: ["page-0"] }] } }) };
  // Past the 500 page files at which the load says what it is loading; enough text to take a while.
  const body = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(200);
  for (let i = 0; i < 3000; i++) files[`section-${i % 30}/page-${i}.mdx`] = `---\ntitle: Page ${i}\n---\n\n# Page ${i}\n\n${body}\n`;
  repo = makeRepo(files);
  stateDir = mkdtempSync(join(tmpdir(), "svc-stop-state-"));
});
afterAll(() => {
  repo?.cleanup();
  rmSync(stateDir, { recursive: true, force: true });
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  it(`${signal} during the load ends the process there, without the banner`, async () => {
    const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--dir", repo.dir, "--state", stateDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    createInterface({ input: child.stderr }).on("line", (line) => {
      lines.push(line);
      if (line.startsWith("svc-mcp: loading ")) child.kill(signal);
    });
    const [code, got] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (c, s) => resolve([c, s])));
    expect({ code, signal: got, lines: lines.map((l) => l.replace(repo.dir, "<repo>")) }).toEqual({ code: null, signal, lines: ["svc-mcp: loading 3000 page files from <repo>"] });
  });
}
