#!/usr/bin/env node
// `npm run test:loaded`: the whole suite (`npm test`) with two CPU-burning processes beside it, as
// on a busy machine: no test may depend on how fast the machine is (docs/measurements.md, "A busy
// machine"). Prints the load average every minute and at the end; the hogs are ended by their pid.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";

const hogs = [0, 1].map(() => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
const samples = [];
const sample = () => {
  const [one, five] = loadavg();
  samples.push(one);
  process.stderr.write(`test:loaded: load average ${one.toFixed(2)} (5 min ${five.toFixed(2)}), hogs ${hogs.map((h) => h.pid).join(", ")}\n`);
};
sample();
const timer = setInterval(sample, 60_000);
const stop = () => {
  clearInterval(timer);
  for (const h of hogs) h.kill("SIGKILL");
};
process.once("SIGINT", () => stop());
process.once("SIGTERM", () => stop());
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const suite = spawn(npm, ["test", ...process.argv.slice(2)], { stdio: "inherit" });
suite.once("exit", (code, signal) => {
  sample();
  stop();
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  process.stderr.write(`test:loaded: ${code === 0 ? "passed" : `failed (${signal ?? code})`}; 1-minute load average over the run: mean ${mean.toFixed(1)}, max ${Math.max(...samples).toFixed(1)}\n`);
  process.exit(code ?? 1);
});
