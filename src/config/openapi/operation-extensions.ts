import { type ApiOperation, HTTP_METHODS } from "./model.js";
import type { SpecWarning } from "./spec-warning.js";
import { pointerSegment } from "./validate-openapi.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** The spellings of a flag written as a string that read as true or false (YAML 1.1's, which generated specs keep quoted). */
const TRUE_WORDS = new Set(["true", "yes"]);
const FALSE_WORDS = new Set(["false", "no"]);

/**
 * `x-hidden` / `x-excluded` as a flag: a boolean, or a string that plainly says one (`"true"`,
 * `"yes"`, `"false"`, `"no"`, any case), which specs generated from YAML 1.1 or from annotations
 * carry; anything else is no flag (the operation is shown as usual). Each string or other value
 * is warned of (`operationExtensionWarnings`): the platform documents booleans only.
 */
export function readFlag(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  return typeof v === "string" && TRUE_WORDS.has(v.trim().toLowerCase());
}

/** Redoc-style code samples: the items with a string `lang` and `source` (the others are warned of). */
export function readCodeSamples(v: unknown): ApiOperation["codeSamples"] {
  if (!Array.isArray(v)) return [];
  const out: { lang: string; label?: string; source: string }[] = [];
  for (const s of v) {
    if (!isObj(s)) continue;
    const lang = str(s.lang);
    const source = typeof s.source === "string" && s.source.trim() !== "" ? s.source : undefined;
    const label = str(s.label);
    if (lang !== undefined && source !== undefined) out.push({ lang, source, ...(label !== undefined ? { label } : {}) });
  }
  return out;
}

/** The key an operation's code samples are read from: `x-codeSamples`, else Redoc's older `x-code-samples`. */
export function codeSamplesKey(op: Obj): "x-codeSamples" | "x-code-samples" | undefined {
  return op["x-codeSamples"] !== undefined ? "x-codeSamples" : op["x-code-samples"] !== undefined ? "x-code-samples" : undefined;
}

/**
 * Warnings for operation extensions written in a shape no page can use: `x-codeSamples` (or
 * `x-code-samples`) that is not an array, an item that is no object, has no string `source` or
 * no string `lang`, a non-string `label`; `x-hidden` / `x-excluded` that is not a boolean. Each
 * names the JSON pointer of the value; the operation's page is made as if it were not written
 * (before: silently dropped, so an author never learnt why a sample or a hidden flag did nothing).
 */
export function operationExtensionWarnings(doc: Obj): SpecWarning[] {
  const out: SpecWarning[] = [];
  for (const [root, items] of [["paths", doc.paths], ["webhooks", doc.webhooks]] as const) {
    if (!isObj(items)) continue;
    for (const [key, item] of Object.entries(items)) {
      if (!isObj(item)) continue;
      for (const method of HTTP_METHODS.map((m) => m.toLowerCase())) {
        const op = item[method];
        if (isObj(op)) operationWarnings(op, [root, key, method], out);
      }
    }
  }
  return out;
}

function operationWarnings(op: Obj, at: readonly string[], out: SpecWarning[]): void {
  const warn = (segments: readonly (string | number)[], what: string): void => {
    const pointer = `/${segments.map((s) => pointerSegment(String(s))).join("/")}`;
    out.push({ message: `${pointer}: ${what}`, at: segments });
  };
  for (const flag of ["x-hidden", "x-excluded"] as const) {
    const v = op[flag];
    if (v === undefined || typeof v === "boolean") continue;
    const word = typeof v === "string" ? v.trim().toLowerCase() : undefined;
    const reading = word !== undefined && TRUE_WORDS.has(word) ? "read as true" : word !== undefined && FALSE_WORDS.has(word) ? "read as false" : "ignored";
    warn([...at, flag], `${flag} must be true or false, not ${describe(v)}; ${reading}`);
  }
  const key = codeSamplesKey(op);
  if (key === undefined) return;
  const samples = op[key];
  if (!Array.isArray(samples)) {
    warn([...at, key], `${key} must be an array of {lang, label, source}, not ${describe(samples)}; no code sample is shown from it`);
    return;
  }
  samples.forEach((s, i) => {
    const place = [...at, key, i];
    if (!isObj(s)) return warn(place, `a code sample must be an object with lang and source, not ${describe(s)}; left out`);
    if (typeof s.source !== "string" || s.source.trim() === "") return warn(place, `a code sample needs a source (a string), ${s.source === undefined ? "and has none" : `not ${describe(s.source)}`}; left out`);
    if (typeof s.lang !== "string" || s.lang.trim() === "") return warn(place, `a code sample needs a lang (a string such as "python"), ${s.lang === undefined ? "and has none" : `not ${describe(s.lang)}`}; left out`);
    if (s.label !== undefined && typeof s.label !== "string") warn([...place, "label"], `label must be a string, not ${describe(s.label)}; the sample is labelled by its lang`);
    return undefined;
  });
}

/** A value as a warning names it: its JSON, short, with its type. */
function describe(v: unknown): string {
  const kind = v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : typeof v === "string" ? "a string" : `a ${typeof v}`;
  if (typeof v === "object" && v !== null) return kind;
  const json = JSON.stringify(v) ?? String(v);
  return `${kind} (${json.length > 40 ? `${json.slice(0, 40)}…` : json})`;
}
