import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { answerForm, derivedForm, type SearchAnswer } from "../../../src/engine/use-cases/search-answers.js";
import { type SearchInput, searchAnswer } from "../../../src/engine/use-cases/search-docs.js";
import { readerWithGroups } from "../../../src/vfs/access.js";
import { localContext, type RequestContext } from "../../../src/vfs/request-context.js";
import { fixture } from "../../helpers/paths.js";
import { makeRepo } from "../../helpers/repo.js";

/**
 * The one answer cache: a repeat of a search by a reader who sees the same gets the same answer,
 * and every form made of it (the tool's result, its JSON) once; anything that could change the
 * answer is another entry.
 */
let runtime: DocsRuntime;
let cacheless: DocsRuntime;
beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example" });
  cacheless = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example", searchCache: 0 });
});
afterAll(async () => {
  await runtime.close();
  await cacheless.close();
});

async function ask(request: RequestContext, input: SearchInput, on: DocsRuntime = runtime): Promise<SearchAnswer> {
  const found = await searchAnswer({ runtime: on, request }, input);
  if (!found.ok) throw new Error("refused");
  return found.value;
}

const LENGTH = answerForm<{ length: number }>("length");
const JSON_OF = answerForm<string>("json");

describe("the search answer cache", () => {
  it("gives a repeat the same answer, with its forms made once per key", async () => {
    const first = await ask(localContext(), { query: "multipart upload", pageSize: 2 });
    const again = await ask(localContext(), { query: "multipart upload", pageSize: 2 });
    expect(again).toBe(first);
    expect(again.text).toBe(first.text);
    let made = 0;
    const length = () => first.form(LENGTH, "commit a", () => ({ length: first.results.length + made++ }));
    expect(length()).toBe(length());
    expect(made).toBe(1);
    const other = first.form(LENGTH, "commit b", () => ({ length: made++ }));
    expect(other).toEqual({ length: 1 });
    // A form of a form follows its source: the JSON of the replaced value is not the new one's.
    expect(derivedForm(other, JSON_OF, "id", () => JSON.stringify(other))).toBe('{"length":1}');
    expect(derivedForm(other, JSON_OF, "id", () => "made again")).toBe('{"length":1}');
    const fresh = first.form(LENGTH, "commit a", () => ({ length: 7 }));
    expect(derivedForm(fresh, JSON_OF, "id", () => JSON.stringify(fresh))).toBe('{"length":7}');
    // A value no answer made (a cut answer, another tool's result) is made afresh each time.
    expect(derivedForm({ x: 1 }, JSON_OF, "id", () => "one")).toBe("one");
  });

  it("keeps apart other arguments, readers who see otherwise, and a runtime with no result cache", async () => {
    const anonymous = await ask(localContext(), { query: "storage node drain runbook", pageSize: 5 });
    expect(await ask(localContext(), { query: "storage node drain runbook", pageSize: 4 })).not.toBe(anonymous);
    const staff = await ask(localContext(readerWithGroups(["staff"])), { query: "storage node drain runbook", pageSize: 5 });
    expect(staff).not.toBe(anonymous);
    expect(staff.results[0]?.path).toBe("/internal/runbook");
    expect(anonymous.results.map((r) => r.path)).not.toContain("/internal/runbook");
    expect(await ask(localContext(), { query: "storage node drain runbook", pageSize: 5 })).toBe(anonymous);
    const once = await ask(localContext(), { query: "multipart upload" }, cacheless);
    const twice = await ask(localContext(), { query: "multipart upload" }, cacheless);
    expect(twice).not.toBe(once);
    expect(twice.results).toEqual(once.results);
    // An answer no other request can get is not frozen (issue 23: freezing it cost 1-2% of a
    // worker's CPU per call); one the cache gives to every request that asks the same is.
    expect([once.shared, Object.isFrozen(once.results), anonymous.shared, Object.isFrozen(anonymous.results), Object.isFrozen(anonymous.results[0])]).toEqual([false, false, true, true, true]);
  });

  it("finds no answer from the forms of one it did not keep: each is made for its one request", async () => {
    // With no result cache an answer is never asked again; a form of its forms (the bridge's
    // JSON of the tool result) is made afresh, and the answer is not kept alive by its forms.
    const once = await ask(localContext(), { query: "multipart upload" }, cacheless);
    const result = once.form(LENGTH, "commit a", () => ({ length: once.results.length }));
    expect(once.form(LENGTH, "commit a", () => ({ length: -1 }))).toBe(result);
    expect(derivedForm(result, JSON_OF, "id", () => "first")).toBe("first");
    expect(derivedForm(result, JSON_OF, "id", () => "second")).toBe("second");
  });

  it("forgets every answer when the site changes", async () => {
    const repo = makeRepo({ "docs.json": JSON.stringify({ name: "Edit", navigation: { pages: ["a"] } }), "a.mdx": "# A\n\nOld widgets glow." });
    const edited = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://e.example" });
    try {
      const before = await ask(localContext(), { query: "widgets" }, edited);
      expect(await ask(localContext(), { query: "widgets" }, edited)).toBe(before);
      writeFileSync(join(repo.dir, "a.mdx"), "# A\n\nNew widgets hum.");
      await edited.applyChanges(["a.mdx"]);
      const after = await ask(localContext(), { query: "widgets" }, edited);
      expect(after).not.toBe(before);
      expect([before.results.map((r) => r.snippet), after.results.map((r) => r.snippet)]).toEqual([["Old widgets glow."], ["New widgets hum."]]);
    } finally {
      await edited.close();
      repo.cleanup();
    }
  });
});
