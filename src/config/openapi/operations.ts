import type { TextPosition } from "./spec-positions.js";
import {
  type ApiAuth,
  type ApiContent,
  type ApiExample,
  type ApiExtension,
  type ApiOperation,
  type ApiParameter,
  type ApiResponse,
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  WEBHOOK,
} from "./model.js";
import { pointerSegment, type SchemaProblem } from "./validate-openapi.js";
import { readPageMeta, UNMATCHABLE_GROUP } from "../page-meta.js";
import { lookalikeKeys } from "../rule-key-fold.js";
import { codeSamplesKey, readCodeSamples, readFlag } from "./operation-extensions.js";
import { securityNotShown, serversNotShown } from "./security-not-shown.js";

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

/**
 * Read every operation (and 3.1 webhook) of a dereferenced OpenAPI document. `problems` are
 * the schema violations found on the raw document; each is attached to the operation it sits
 * in (a problem on a path item or its shared parameters belongs to all its operations).
 */
export function readOperations(doc: Obj, problems: readonly SchemaProblem[], locate: (pointer: string) => TextPosition | undefined = () => undefined): ApiOperation[] {
  const docServers = readServers(doc.servers);
  const docServersNotShown = serversNotShown(doc);
  const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const docSecurity = doc.security;
  const docSecurityNotShown = securityNotShown(doc);
  const out: ApiOperation[] = [];
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    const itemPointer = `/paths/${pointerSegment(path)}`;
    for (const lower of HTTP_METHODS.map((m) => m.toLowerCase())) {
      const op = item[lower];
      if (!isObj(op)) continue;
      const pointer = `${itemPointer}/${lower}`;
      out.push(
        readOperation({
          kind: "operation",
          method: lower.toUpperCase(),
          path,
          item,
          op,
          pointer,
          ...problemsIn(problems, itemPointer, pointer, locate),
          docServers,
          docServersNotShown,
          schemes,
          docSecurity,
          docSecurityNotShown,
        }),
      );
    }
  }
  const webhooks = isObj(doc.webhooks) ? doc.webhooks : {};
  for (const [name, item] of Object.entries(webhooks)) {
    if (!isObj(item)) continue;
    const itemPointer = `/webhooks/${pointerSegment(name)}`;
    for (const method of HTTP_METHODS) {
      const op = item[method.toLowerCase()];
      if (!isObj(op)) continue;
      const pointer = `${itemPointer}/${method.toLowerCase()}`;
      out.push(
        readOperation({
          kind: "webhook",
          method: WEBHOOK,
          webhookMethod: method,
          path: name,
          item,
          op,
          pointer,
          ...problemsIn(problems, itemPointer, pointer, locate),
          docServers: [],
          docServersNotShown: false,
          schemes,
          docSecurity: undefined,
          docSecurityNotShown: false,
        }),
      );
      break; // one page per webhook: the first method it declares
    }
  }
  return out;
}

/** The problems an operation has, phrased from it, and where the first is written. */
function problemsIn(problems: readonly SchemaProblem[], itemPointer: string, opPointer: string, locate: (pointer: string) => TextPosition | undefined): { problems: string[]; problemAt?: TextPosition } {
  const out: string[] = [];
  let first: string | undefined;
  for (const p of problems) {
    const inOp = p.pointer === opPointer || p.pointer.startsWith(`${opPointer}/`);
    // The path item itself or its shared keys (`parameters`, `servers`), not a sibling operation.
    const inItem =
      p.pointer === itemPointer ||
      (p.pointer.startsWith(`${itemPointer}/`) && !HTTP_METHODS.some((m) => p.pointer.startsWith(`${itemPointer}/${m.toLowerCase()}`)));
    if (!inOp && !inItem) continue;
    first ??= p.pointer;
    out.push(`${p.pointer.slice(opPointer.length) || "(operation)"}: ${p.message}`.replace(/^\//, ""));
  }
  const at = first !== undefined ? locate(first) : undefined;
  return { problems: out, ...(at !== undefined ? { problemAt: at } : {}) };
}

interface OpInput {
  kind: "operation" | "webhook";
  method: string;
  webhookMethod?: HttpMethod;
  path: string;
  item: Obj;
  op: Obj;
  pointer: string;
  problems: string[];
  problemAt?: TextPosition;
  docServers: string[];
  /** The document's `servers` were all left out of this copy (`security-not-shown.ts`). */
  docServersNotShown: boolean;
  schemes: Obj;
  docSecurity: unknown;
  /** The document's `security` named only schemes this copy leaves out (`security-not-shown.ts`). */
  docSecurityNotShown: boolean;
}

function readOperation(i: OpInput): ApiOperation {
  const { op, item } = i;
  const params = mergeParameters(item.parameters, op.parameters);
  // The operation's own list, else its path item's, else the document's. A list every server of
  // which this copy leaves out is written as a marker (`security-not-shown.ts`): the search stops
  // there, as at the list it was; read on, the operation would be on servers never declared for it.
  const own = [op, item].find((o) => serversNotShown(o) || readServers(o.servers).length > 0);
  const notShown = own !== undefined ? serversNotShown(own) : i.docServersNotShown;
  const extension = withItemRule(readExtension(op), readExtension(item)?.metadata);
  const requestBody = isObj(op.requestBody)
    ? {
        required: op.requestBody.required === true,
        ...(str(op.requestBody.description) !== undefined ? { description: str(op.requestBody.description) as string } : {}),
        content: readContent(op.requestBody.content),
      }
    : undefined;
  const summary = str(op.summary);
  const description = str(op.description);
  const operationId = str(op.operationId);
  return {
    kind: i.kind,
    method: i.method,
    path: i.path,
    ...(i.webhookMethod !== undefined ? { webhookMethod: i.webhookMethod } : {}),
    ...(operationId !== undefined ? { operationId } : {}),
    ...(summary !== undefined ? { summary: summary.trim() } : {}),
    ...(description !== undefined ? { description } : {}),
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string" && t.trim() !== "") : [],
    deprecated: op.deprecated === true,
    parameters: params,
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses: readResponses(op.responses),
    security: readSecurity(op.security !== undefined ? op.security : i.docSecurity, i.schemes),
    ...(securityNotShown(op) || (op.security === undefined && i.docSecurityNotShown) ? { securityNotShown: true as const } : {}),
    servers: notShown ? [] : own !== undefined ? readServers(own.servers) : i.docServers,
    ...(notShown ? { serversNotShown: true as const } : {}),
    // `x-mint.metadata.hidden` is the page's front matter `hidden`: out of navigation as `x-hidden`.
    // A string "true"/"yes" reads as true (`readFlag`), with a warning (`operationExtensionWarnings`).
    hidden: readFlag(op["x-hidden"]) || (extension?.metadata !== undefined && readPageMeta(extension.metadata).hidden),
    excluded: readFlag(op["x-excluded"]),
    ...(extension !== undefined ? { extension } : {}),
    codeSamples: readCodeSamples(op[codeSamplesKey(op) ?? "x-codeSamples"]),
    pointer: i.pointer,
    problems: i.problems,
    ...(i.problemAt !== undefined ? { problemAt: i.problemAt } : {}),
  };
}

/** Operation parameters override path-item parameters with the same name and location. */
function mergeParameters(itemParams: unknown, opParams: unknown): ApiParameter[] {
  const byKey = new Map<string, ApiParameter>();
  for (const list of [itemParams, opParams]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const param = readParameter(p);
      if (param !== undefined) byKey.set(`${param.in}:${param.name}`, param);
    }
  }
  return [...byKey.values()];
}

function readParameter(p: unknown): ApiParameter | undefined {
  if (!isObj(p)) return undefined;
  const name = str(p.name);
  const where = p.in;
  if (name === undefined || (where !== "path" && where !== "query" && where !== "header" && where !== "cookie")) return undefined;
  let schema = isObj(p.schema) ? (p.schema as JsonSchema) : undefined;
  // `content` instead of `schema` (a JSON-encoded query parameter): use its first media type.
  if (schema === undefined && isObj(p.content)) {
    const first = Object.values(p.content)[0];
    if (isObj(first) && isObj(first.schema)) schema = first.schema as JsonSchema;
  }
  const examples = readExamples(p);
  const description = str(p.description);
  return {
    name,
    in: where,
    required: where === "path" || p.required === true,
    deprecated: p.deprecated === true,
    ...(description !== undefined ? { description } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(examples[0] !== undefined ? { example: examples[0].value } : {}),
  };
}

function readContent(content: unknown): ApiContent[] {
  if (!isObj(content)) return [];
  const out: ApiContent[] = [];
  for (const [mediaType, media] of Object.entries(content)) {
    if (!isObj(media)) continue;
    out.push({
      mediaType,
      ...(isObj(media.schema) ? { schema: media.schema as JsonSchema } : {}),
      examples: readExamples(media),
    });
  }
  return out;
}

/** `example` or `examples` (a map of Example objects) of a media type or parameter. */
function readExamples(owner: Obj): ApiExample[] {
  if (owner.example !== undefined) return [{ name: "example", value: owner.example }];
  if (!isObj(owner.examples)) return [];
  const out: ApiExample[] = [];
  for (const [name, ex] of Object.entries(owner.examples)) {
    if (!isObj(ex) || ex.value === undefined) continue;
    const summary = str(ex.summary);
    out.push({ name, ...(summary !== undefined ? { summary } : {}), value: ex.value });
  }
  return out;
}

function readResponses(responses: unknown): ApiResponse[] {
  if (!isObj(responses)) return [];
  const out: ApiResponse[] = [];
  for (const [status, r] of Object.entries(responses)) {
    if (!isObj(r)) continue;
    const description = str(r.description);
    out.push({ status, ...(description !== undefined ? { description } : {}), content: readContent(r.content) });
  }
  return out;
}

function readSecurity(security: unknown, schemes: Obj): ApiAuth[][] {
  if (!Array.isArray(security)) return [];
  const out: ApiAuth[][] = [];
  for (const requirement of security) {
    if (!isObj(requirement)) continue;
    const alt: ApiAuth[] = [];
    for (const name of Object.keys(requirement)) {
      const s = schemes[name];
      if (!isObj(s)) continue;
      const scheme = str(s.scheme);
      const where = str(s.in);
      const paramName = str(s.name);
      const description = str(s.description);
      alt.push({
        name,
        type: str(s.type) ?? "unknown",
        ...(scheme !== undefined ? { scheme: scheme.toLowerCase() } : {}),
        ...(where !== undefined ? { in: where } : {}),
        ...(paramName !== undefined ? { paramName } : {}),
        ...(description !== undefined ? { description } : {}),
      });
    }
    // `{}` in a security list means "no authentication" is one of the options.
    out.push(alt);
  }
  return out;
}

/** Server URLs with `{variables}` replaced by their defaults; trailing slashes dropped. */
export function readServers(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  const out: string[] = [];
  for (const s of servers) {
    if (!isObj(s)) continue;
    const url = str(s.url);
    if (url === undefined) continue;
    const vars = isObj(s.variables) ? s.variables : {};
    const filled = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const v = vars[name];
      return isObj(v) && (typeof v.default === "string" || typeof v.default === "number") ? String(v.default) : whole;
    });
    out.push(filled.length > 1 ? filled.replace(/\/+$/, "") : filled);
  }
  return out;
}

/**
 * `x-svc` (or the predecessor's `x-mint`; both are read, `x-svc` winning key by key) of an
 * operation or an AsyncAPI channel. Fails
 * closed: an extension, or its `metadata`, that is there but not an object may have been meant
 * to restrict the operation, so it restricts it to no reader (as an unreadable `groups` value
 * does on a page) instead of being ignored and leaving it public.
 */
/**
 * An operation's rule with its path item's: `x-svc`/`x-mint` `metadata.groups` on a path item
 * (or webhook) restricts each of its operations, as the hosted platform does not read it there
 * and an author who wrote it meant the path restricted (fail closed: it was public). A reader
 * must pass both rules: the operation's own groups are narrowed to those the item's also names
 * (no group in common: no reader), and its `public: true` no longer opens it. An AsyncAPI
 * operation's traits narrow it the same way (`asyncOperationRule`).
 */
export function withItemRule(own: ApiExtension | undefined, item: Readonly<Record<string, unknown>> | undefined): ApiExtension | undefined {
  const itemGroups = item !== undefined ? restrictingGroups(item) : undefined;
  if (itemGroups === undefined) return own;
  const ownMeta: Obj = { ...(own?.metadata ?? {}) };
  const ownGroups = restrictingGroups(ownMeta);
  const both = ownGroups === undefined ? itemGroups : itemGroups.filter((g) => ownGroups.includes(g));
  delete ownMeta.public;
  return { ...(own ?? {}), metadata: { ...ownMeta, groups: both.length > 0 ? both : [UNMATCHABLE_GROUP] } };
}

/** The groups a rule restricts to; undefined when it restricts nothing (`public: true`, no `groups`). */
function restrictingGroups(metadata: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const meta = readPageMeta(metadata);
  return meta.public === true ? undefined : meta.groups;
}

export function readExtension(op: Obj): ApiExtension | undefined {
  // `null` is there too (`x-svc: ~`, `metadata:` left empty): read as a rule naming no group, as
  // `groups: ~` on a page is, not as no rule.
  const present = [op["x-mint"], op["x-svc"]].filter((e) => e !== undefined);
  const nearMiss = nearMissRules(op);
  if (present.length === 0) return nearMiss.reduce<ApiExtension | undefined>((rule, m) => withItemRule(rule, m), undefined);
  const objects = present.filter(isObj);
  const unreadable = objects.length < present.length || objects.some((e) => e.metadata !== undefined && !isObj(e.metadata));
  const ext = mergeOwn(objects);
  const metadata = mergeOwn(objects.map((e) => (isObj(e.metadata) ? e.metadata : {})));
  // A near-miss `groups` (`"groups "`) is read as `groups`, as on a page (`readPageMeta`), and
  // written so: the generated page's front matter takes only plain keys (`metadataFields`).
  const nearGroups = Object.hasOwn(metadata, "groups") ? undefined : lookalikeKeys(metadata, ["groups"])[0];
  if (nearGroups !== undefined) metadata.groups = metadata[nearGroups];
  if (unreadable) metadata.groups = [UNMATCHABLE_GROUP];
  const href = str(ext.href);
  const content = str(ext.content);
  const read: ApiExtension = {
    ...(href !== undefined ? { href } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(content !== undefined ? { content } : {}),
  };
  // `groups` written beside `metadata` instead of in it (`x-svc: {groups: [staff]}`): the
  // platform reads neither, so it was public, though its author meant it restricted. Read as a
  // rule a reader must pass besides `metadata`'s, which it narrows as a path item's does (fail
  // closed), `x-mint`'s and `x-svc`'s each; `check` says where it belongs (`looseGroupsWarnings`).
  let rule = read;
  for (const e of objects) if (Object.hasOwn(e, "groups")) rule = withItemRule(rule, { groups: e.groups }) as ApiExtension;
  for (const m of nearMiss) rule = withItemRule(rule, m) as ApiExtension;
  return rule;
}

/** The names the extension is read under (`x-mint`, the predecessor's, first). */
export const EXTENSION_KEYS: readonly string[] = ["x-mint", "x-svc"];

/**
 * The rules written under near-miss keys (`x-SVC`, `"x-svc "`, `Metadata` in an extension, a
 * zero-width character inside; `lookalikeKeys`), each a `metadata` a reader must pass besides the
 * exact one's, as a path item's is (fail closed: the platform reads none, so the part was public).
 * A value that is not an object restricts to no reader, as an unreadable `metadata` does. A
 * near-miss `groups` inside `metadata` is `readPageMeta`'s (row 198). Only rules are taken from
 * a near-miss extension: its `href` or `content` is not read; `check` says to rename each key.
 */
function nearMissRules(op: Obj): Obj[] {
  const nobody: Obj = { groups: [UNMATCHABLE_GROUP] };
  const out: Obj[] = [];
  const exts: unknown[] = [op["x-mint"], op["x-svc"]];
  for (const key of lookalikeKeys(op, EXTENSION_KEYS)) {
    const ext = op[key];
    exts.push(ext);
    if (!isObj(ext)) out.push(nobody);
    else if (Object.hasOwn(ext, "metadata")) out.push(isObj(ext.metadata) ? ext.metadata : nobody);
    if (isObj(ext) && Object.hasOwn(ext, "groups")) out.push({ groups: ext.groups });
  }
  for (const ext of exts) {
    if (!isObj(ext)) continue;
    for (const key of lookalikeKeys(ext, ["metadata"])) out.push(isObj(ext[key]) ? (ext[key] as Obj) : nobody);
  }
  return out;
}

/**
 * Objects' own keys merged, later ones winning, each key defined as data: `Object.assign` sets a
 * `__proto__` key as the prototype, and `"x-mint": {"__proto__": {"href": "/moved"}}` moved the
 * page through it (adversary round 3).
 */
function mergeOwn(objects: readonly Obj[]): Obj {
  const out: Obj = {};
  for (const o of objects) for (const key of Object.keys(o)) Object.defineProperty(out, key, { value: o[key], enumerable: true, writable: true, configurable: true });
  return out;
}

