/**
 * The API model generated pages, matching and the playground work on: one shape for OpenAPI
 * 3.0 and 3.1 (and, for channels, AsyncAPI), read once from a dereferenced document.
 */

import type { TextPosition } from "./spec-positions.js";
/** Methods an operation entry may name. Matching is case-sensitive: entries must use these. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `WEBHOOK <name>` entries select an OpenAPI 3.1 `webhooks` item. */
export const WEBHOOK = "WEBHOOK";

/** A JSON Schema as found in a dereferenced spec (may be circular). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ApiParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly schema?: JsonSchema;
  /** `example`, or the first of `examples`. */
  readonly example?: unknown;
}

export interface ApiExample {
  readonly name: string;
  readonly summary?: string;
  readonly value: unknown;
}

export interface ApiContent {
  readonly mediaType: string;
  readonly schema?: JsonSchema;
  readonly examples: readonly ApiExample[];
}

export interface ApiRequestBody {
  readonly required: boolean;
  readonly description?: string;
  readonly content: readonly ApiContent[];
}

export interface ApiResponse {
  /** `200`, `4XX`, `default`. */
  readonly status: string;
  readonly description?: string;
  readonly content: readonly ApiContent[];
}

/** One way to authenticate (a security scheme as the page shows and code examples use it). */
export interface ApiAuth {
  readonly name: string;
  readonly type: string;
  /** `bearer`, `basic` for `type: http`. */
  readonly scheme?: string;
  /** For `apiKey`: where the key goes and its parameter name. */
  readonly in?: string;
  readonly paramName?: string;
  readonly description?: string;
}

/** `x-svc` (or `x-mint`, the predecessor's name) on an operation. */
export interface ApiExtension {
  /** Where the operation's page lives instead of its generated path. */
  readonly href?: string;
  /** Page front matter for the generated page (`title`, `playground`, `groups`, `public`...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Extra Markdown appended to the generated page. */
  readonly content?: string;
}

export interface ApiOperation {
  /** `operation` under `paths`; `webhook` under 3.1 `webhooks` (method is `WEBHOOK`). */
  readonly kind: "operation" | "webhook";
  /** Upper-case HTTP method, or `WEBHOOK`. */
  readonly method: string;
  /** Path template (`/users/{id}`), or the webhook name. */
  readonly path: string;
  /** For webhooks: the HTTP method the webhook request uses. */
  readonly webhookMethod?: HttpMethod;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly ApiParameter[];
  readonly requestBody?: ApiRequestBody;
  readonly responses: readonly ApiResponse[];
  /** Alternatives (any one suffices); each alternative needs all of its schemes. */
  readonly security: readonly (readonly ApiAuth[])[];
  /** Authentication is required by schemes left out of this copy of the spec (`security-not-shown.ts`); `security` is then empty. */
  readonly securityNotShown?: true;
  /** Base URLs, operation-level servers first, variables filled with their defaults. */
  readonly servers: readonly string[];
  /** The servers it is on are left out of this copy of the spec (`security-not-shown.ts`); `servers` is then empty. */
  readonly serversNotShown?: true;
  /** `x-hidden: true`: a page exists, but generated navigation leaves it out. */
  readonly hidden: boolean;
  /** `x-excluded: true`: no page at all. */
  readonly excluded: boolean;
  readonly extension?: ApiExtension;
  /** Redoc-style `x-codeSamples` / `x-code-samples`, shown before generated examples. */
  readonly codeSamples: readonly { readonly lang: string; readonly label?: string; readonly source: string }[];
  /** JSON pointer of the operation in its spec (`/paths/~1users/get`), for `jq` and messages. */
  readonly pointer: string;
  /** Schema validation problems inside this operation; a non-empty list skips the operation. */
  readonly problems: readonly string[];
  /** Where the first of `problems` is written in the spec, when known. */
  readonly problemAt?: TextPosition;
}

/** A loaded, validated, dereferenced OpenAPI document. */
export interface ApiSpec {
  readonly format: "openapi";
  /** Repository-relative path or URL, as docs.json names it (normalised). */
  readonly source: string;
  /** `3.0` or `3.1`. */
  readonly version: string;
  readonly title: string;
  readonly description?: string;
  /** Document-level servers (filled), for the relay's allow-list. */
  readonly servers: readonly string[];
  readonly operations: readonly ApiOperation[];
  /** `components.schemas`, dereferenced, in the document's order: what front matter
   *  `openapi-schema` pages show. */
  readonly schemas: readonly ApiSchemaComponent[];
  /** Restricting `x-svc` rules written where no page is made from them (`strayMetadataParts`). */
  readonly strayParts?: readonly StrayPart[];
}

/** A restricting rule outside the parts pages are made from, where it is written. */
export interface StrayPart {
  readonly part: readonly (string | number)[];
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** One entry of `components.schemas`. */
export interface ApiSchemaComponent {
  /** The key (`RefundResponse`). */
  readonly name: string;
  readonly schema: JsonSchema;
}

/** `GET /users` or `WEBHOOK newPet`. */
export function operationLabel(op: Pick<ApiOperation, "method" | "path">): string {
  return `${op.method} ${op.path}`;
}
