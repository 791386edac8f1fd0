import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonSource } from "../../src/config/docs-json/json-source.js";
import { SHARED } from "../helpers/paths.js";
import { REAL_SITES, itShared } from "../helpers/shared.js";

const parse = (text: string) => parseJsonSource(text, "docs.json");

describe("parseJsonSource", () => {
  it("records where every value starts, by JSON path", () => {
    const r = parse('{\n  "a": [1, {"b": "x"}],\n\t"c d": null\n}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.source.value).toEqual({ a: [1, { b: "x" }], "c d": null });
    expect(Object.fromEntries([...r.source.positions].map(([p, pos]) => [p, `${pos.line}:${pos.column}`]))).toEqual({
      "": "1:1",
      a: "2:8",
      "a[0]": "2:9",
      "a[1]": "2:12",
      "a[1].b": "2:18",
      '["c d"]': "3:9",
    });
    expect(r.source.keyPositions.get('["c d"]')).toEqual({ file: "docs.json", line: 3, column: 2 });
  });

  itShared("gives the same values as JSON.parse on the real docs.json files", () => {
    for (const corpus of REAL_SITES) {
      const text = readFileSync(join(SHARED, "corpora", corpus, "docs.json"), "utf8");
      const r = parse(text);
      expect(r.ok && r.source.value).toEqual(JSON.parse(text));
    }
  });

  it("handles escapes, a byte order mark and __proto__ keys like JSON.parse", () => {
    const text = '\uFEFF{"s": "a\\"b\\\\c\\n\\u00e9", "__proto__": {"x": 1}, "n": -1.5e2}';
    const r = parse(text);
    expect(r.ok && r.source.value).toEqual(JSON.parse(text.slice(1)));
    expect(r.ok && Object.getPrototypeOf(r.source.value)).toBe(Object.prototype);
    // Columns count from after the byte order mark.
    expect(r.ok && r.source.positions.get("n")).toEqual({ file: "docs.json", line: 1, column: text.indexOf("-1.5e2") });
  });

  it("counts a line at LF, CRLF and a lone CR alike, as editors do", () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const r = parse(`{"name": "x",${eol}"navigation": {${eol}"pages": ["a", 5]}}`);
      expect(r.ok && r.source.positions.get("navigation.pages[1]")).toEqual({ file: "docs.json", line: 3, column: 16 });
    }
  });

  it("reports keys written twice", () => {
    const r = parse('{"a": 1,\n "a": 2}');
    expect(r.ok && r.source.duplicateKeys).toEqual([{ path: "a", position: { file: "docs.json", line: 2, column: 2 } }]);
    expect(r.ok && r.source.value).toEqual({ a: 2 });
  });

  const errors: [string, string, string][] = [
    ["", "1:1", "the file is empty (expected a JSON value)"],
    ['{"a": 1,}', "1:8", 'trailing comma before "}"'],
    ['[1,\n 2,\n]', "2:3", 'trailing comma before "]"'],
    ['{"a": 1 "b": 2}', "1:9", `unexpected '"' (expected "," or "}" after a property value)`],
    ["{a: 1}", "1:2", 'unexpected "a" (expected a property name in double quotes)'],
    ["{'a': 1}", "1:2", `unexpected "'" (strings must use double quotes) (expected a property name in double quotes)`],
    ['{"a" 1}', "1:6", 'unexpected "1" (expected ":" after a property name)'],
    ['{"a": tru}', "1:7", 'unexpected "t" (expected a value)'],
    ['{"a": "x\ny"}', "1:9", "unterminated string (a line break inside a string must be written \\n)"],
    ['{"a": "x', "1:7", "unterminated string"],
    ['{"a": "\\x"}', "1:8", 'invalid escape "\\x" in a string'],
    ['{"a": 01}', "1:8", "invalid number"],
    ["{} {}", "1:4", 'unexpected "{" after the end of the JSON value'],
    ['{\n  /* c */ "a": 1}', "2:3", "comments are not allowed in JSON"],
    ['{"a": [1, 2}', "1:12", 'unexpected "}" (expected "," or "]" after an array element)'],
    ['{"a": 1', "1:8", 'unexpected end of file (expected "," or "}" after a property value)'],
  ];
  for (const [text, at, message] of errors) {
    it(`refuses ${JSON.stringify(text)}: ${message}`, () => {
      const r = parse(text);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect([`${r.position.line}:${r.position.column}`, r.message]).toEqual([at, message]);
    });
  }
});
