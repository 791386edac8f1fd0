import { z } from "zod";
import { HTTP_METHODS } from "../../config/openapi/model.js";
import { LIMITS } from "../../limits.js";

/**
 * The JSON body of `POST /_svc/api/request` (docs/api-reference.md, "Playground request relay").
 * `page` names the API page the request is made from: its spec's servers are the only
 * allowed targets, and its playground setting decides who may use the relay.
 */
export const RelayRequest = z.strictObject({
  page: z.string().min(1).describe("page path of the API page (`/api-reference/users/create-user`)"),
  method: z.enum(HTTP_METHODS),
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), "must be an http or https URL"),
  headers: z
    .record(z.string(), z.string())
    .refine((h) => Object.keys(h).length <= LIMITS.relay.maxHeaders, `at most ${LIMITS.relay.maxHeaders} headers`)
    .superRefine((headers, ctx) => {
      for (const [name, value] of Object.entries(headers)) {
        const problem = headerProblem(name, value);
        if (problem !== undefined) ctx.addIssue({ code: "custom", path: [name], message: problem });
      }
    })
    .optional(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  /** A string is sent as is; any other JSON value is sent as JSON. */
  body: z.unknown().optional(),
  /** `base64` when `body` is a base64 string of binary data (a file upload). */
  bodyEncoding: z.enum(["utf8", "base64"]).optional(),
}).superRefine((request, ctx) => {
  const problem = bodyProblem(request.body, request.bodyEncoding);
  if (problem !== undefined) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
});
export type RelayRequest = z.infer<typeof RelayRequest>;

/** Levels of a path inside `body` a refusal names. */
const MAX_PATH_SHOWN = 16;

/**
 * What the relay could not send as the caller wrote it, named by where in `body` it is. Sent
 * anyway, a base64 body that was not base64 went out as whatever Node's lenient decoder made of
 * it (`"%%%"` as nothing, `"aGVsbG8=!!!!garbage"` as `hello`), and a number past a double's range
 * (`1e999`, which JSON.parse reads as Infinity) as `null`, JSON.stringify's word for it: the API
 * got another request than the one the reader sent, and nobody was told (adversary round 58, F6).
 */
function bodyProblem(body: unknown, encoding: "utf8" | "base64" | undefined): { path: (string | number)[]; message: string } | undefined {
  if (encoding === "base64" && body !== undefined && body !== null) {
    if (typeof body !== "string") return { path: ["body"], message: `must be a base64 string when bodyEncoding is base64 (got ${Array.isArray(body) ? "an array" : typeof body})` };
    const problem = base64Problem(body);
    return problem === undefined ? undefined : { path: ["body"], message: `not base64 (bodyEncoding is base64): ${problem}` };
  }
  const where = nonFiniteNumber(body);
  // A path as deep as the body may nest would make a message of hundreds of kilobytes.
  const shown = where !== undefined && where.length > MAX_PATH_SHOWN ? [...where.slice(0, MAX_PATH_SHOWN), `... (${where.length} levels deep)`] : where;
  return shown === undefined ? undefined : { path: ["body", ...shown], message: "a number out of range (it reads as Infinity, which JSON cannot carry, and would be sent as null); send the body as a string to send it as written" };
}

/**
 * What keeps `text` from being base64 (RFC 4648 section 4: its alphabet, in groups of four, `=`
 * padding only at the end), or undefined. Node's decoder skips what it does not know and stops
 * at the first `=`, so it is no check.
 */
function base64Problem(text: string): string | undefined {
  const foreign = /[^A-Za-z0-9+/=]/u.exec(text);
  if (foreign !== null) return `${JSON.stringify(foreign[0])} at character ${foreign.index} is not in its alphabet (A-Z, a-z, 0-9, + and /, with = padding at the end)`;
  const pad = text.indexOf("=");
  if (pad !== -1 && !/^={1,2}$/.test(text.slice(pad))) return `"=" at character ${pad} is padding, which only ends the text (one or two)`;
  if (text.length % 4 !== 0) return `${text.length} characters, where base64 comes in groups of 4 (pad the last group with =)`;
  return undefined;
}

/** A value met in a walk, with how it was reached (the path is made only for the one reported). */
interface Visit {
  readonly value: unknown;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

/**
 * The path inside `value` of its first number that is not finite, or undefined. Walked with a
 * stack of its own: the body may nest as deep as the request's size allows, past the call stack.
 */
function nonFiniteNumber(value: unknown): (string | number)[] | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const v = top.value;
    if (typeof v === "number" && !Number.isFinite(v)) return pathOf(top);
    if (typeof v !== "object" || v === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((item: unknown, i) => [i, item]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string | number, unknown];
      stack.push({ value: item, key, parent: top });
    }
  }
  return undefined;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** RFC 9110 5.1: a field name is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What HTTP cannot carry in a header, in words naming the header: a name that is not a token
 * (spaces, colons, control characters), or a value with CR, LF or other control characters, or
 * characters beyond Latin-1 (RFC 9110 5.5: field values are octets; Node sends them as Latin-1).
 */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `header name ${JSON.stringify(name)} is not a token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  const bad = /[^\t\x20-\x7e\x80-\xff]/u.exec(value);
  if (bad === null) return undefined;
  const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `header ${name}: the value holds U+${code}; a value is one line of Latin-1 text (no CR, LF or other control characters, nothing past U+00FF)`;
}

/** How the playground shows a response, from its content type (the spec's table). */
export type RenderKind = "image" | "audio" | "video" | "code";

export function renderKind(contentType: string | undefined): RenderKind {
  const t = (contentType ?? "").trim().toLowerCase();
  if (t.startsWith("image/")) return "image";
  if (t.startsWith("audio/")) return "audio";
  if (t.startsWith("video/")) return "video";
  return "code";
}

/** The JSON the relay answers with when the upstream answered (whatever its status). */
export interface RelayResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string | null;
  readonly kind: RenderKind;
  /** Text for `code` responses; base64 for images, audio and video. */
  readonly body: string;
  readonly encoding: "utf8" | "base64";
}
