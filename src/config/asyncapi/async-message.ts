import type { ApiExample, JsonSchema } from "../openapi/model.js";
import type { AsyncMessage } from "./model.js";
import { withTraits } from "./async-traits.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** What a page shows of an AsyncAPI message (its traits applied), called `fallbackName` when it writes no `name`. */
export function readMessage(written: Obj, fallbackName: string): AsyncMessage {
  const m = withTraits(written);
  const title = str(m.title);
  const summary = str(m.summary);
  const description = str(m.description);
  const contentType = str(m.contentType);
  const examples: ApiExample[] = Array.isArray(m.examples)
    ? m.examples.filter(isObj).map((e, i) => {
        const s = str(e.summary);
        return { name: str(e.name) ?? `example${i + 1}`, ...(s !== undefined ? { summary: s } : {}), value: e.payload ?? e };
      })
    : [];
  return {
    name: str(m.name) ?? fallbackName,
    ...(title !== undefined ? { title } : {}),
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
    ...(isObj(m.payload) ? { payload: (isObj(m.payload.schema) && str(m.payload.schemaFormat) !== undefined ? m.payload.schema : m.payload) as JsonSchema } : {}),
    ...(isObj(m.headers) ? { headers: m.headers as JsonSchema } : {}),
    ...(isObj(m.bindings) ? { bindings: m.bindings } : {}),
    examples,
  };
}
