// Guard for the house rule "no function over 120 lines without a comment saying why": a
// function in src/ longer than the limit must carry a `// long:` comment (just above it, or
// above the statement that holds it) giving the reason it cannot be split. Generated validators
// (`*.mjs`) are not TypeScript and are not read. `node --import tsx test/helpers/function-lengths.ts`
// lists the longest functions.
import { describe, expect, it } from "vitest";
import { measureFunctions, measureSource } from "../helpers/function-lengths.js";

const MAX_LINES = 120;

/** Long functions another change is splitting now: allowed meanwhile, file and name with the reason. */
const BEING_SPLIT: ReadonlyMap<string, string> = new Map();

/** A function of `lines` lines, after `comment` lines. */
function sourceWith(lines: number, comment = ""): string {
  return `${comment}export function long(): number {\n${"  void 0;\n".repeat(lines - 3)}  return 1;\n}\n`;
}

describe("function length", () => {
  it(`no function in src/ is over ${MAX_LINES} lines without a "// long:" reason`, () => {
    const unexplained = measureFunctions()
      .filter((f) => f.lines > MAX_LINES && f.reason === undefined && !BEING_SPLIT.has(`${f.file} ${f.name}`))
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(unexplained).toEqual([]);
  });

  it("measures a function from its first line to its last, and reads the reason above it", () => {
    expect(measureSource("a.ts", sourceWith(121))).toEqual([{ file: "a.ts", line: 1, name: "long", lines: 121, reason: undefined }]);
    expect(measureSource("a.ts", sourceWith(121, "/** Doc. */\n// long: one state machine\n"))).toEqual([
      { file: "a.ts", line: 3, name: "long", lines: 121, reason: "one state machine" },
    ]);
    const inner = "const table = {\n  // long: a table of cases\n  run: () => {\n    return 1;\n  },\n};\n";
    expect(measureSource("b.ts", inner)).toEqual([{ file: "b.ts", line: 3, name: "run", lines: 3, reason: "a table of cases" }]);
  });
});
