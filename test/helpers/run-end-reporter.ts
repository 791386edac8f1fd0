import type { Reporter, TestModule } from "vitest/node";

/**
 * Says why a run fails when the default reporter's summary does not: twice a CI run ended with
 * exit code 1 after "246 passed" and no error on screen. At the run's end it names every module
 * that is not ok though none of its tests failed (an error in a hook or at import), the
 * unhandled errors' count and the reason the run ended; at exit, any nonzero exit code and who
 * set it before the summary. Silent on a clean run.
 */
export default class RunEndReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: string): void {
    const notOk = modules.filter((m) => !m.ok());
    const lines: string[] = [];
    if (reason !== "passed") lines.push(`run ended: ${reason}`);
    for (const m of notOk) {
      const errors = m.errors().map((e) => e.message.split("\n")[0]);
      lines.push(`not ok: ${m.moduleId}${errors.length > 0 ? ` (${errors.join("; ")})` : ""}`);
    }
    if (unhandledErrors.length > 0) lines.push(`unhandled errors: ${unhandledErrors.length}`);
    if (lines.length > 0) process.stderr.write(`vitest run-end: ${lines.join("\n  ")}\n`);
    const before = process.exitCode;
    process.once("exit", (code) => {
      if (code !== 0) process.stderr.write(`vitest run-end: exit code ${code} (exit code at the run's end: ${String(before)})\n`);
    });
  }
}
