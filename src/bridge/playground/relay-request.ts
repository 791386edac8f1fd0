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
});
export type RelayRequest = z.infer<typeof RelayRequest>;

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
