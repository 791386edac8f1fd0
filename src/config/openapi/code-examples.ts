import type { ExampleLanguage } from "./api-settings.js";
import { finiteData } from "../finite-data.js";
import { type ExampleOptions, exampleValue } from "./example-value.js";
import type { ApiOperation } from "./model.js";
import type { SchemaBudget } from "./schema-budget.js";

/** A request as code examples write it: every value already chosen. */
export interface ExampleRequest {
  readonly method: string;
  /** Full URL with path parameters filled and the query string attached. */
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  /** JSON value (for JSON and form bodies) or undefined. */
  readonly body?: unknown;
  readonly contentType?: string;
}

/** Placeholder base URL when the spec declares no absolute server. */
export const BASE_URL_PLACEHOLDER = "<base-url>";

/** Build the request an operation's examples show, per `api.examples` (`defaults`, `prefill`);
 *  its values are taken from the page's budget (`nodes`; unset: one of its own per value). */
export function exampleRequest(op: ApiOperation, opts: ExampleOptions, nodes?: SchemaBudget): ExampleRequest {
  const server = op.servers.find((s) => /^https?:\/\//i.test(s)) ?? (op.servers[0] !== undefined ? `${BASE_URL_PLACEHOLDER}${op.servers[0].replace(/^\/?/, "/").replace(/\/$/, "")}` : BASE_URL_PLACEHOLDER);
  const method = op.kind === "webhook" ? (op.webhookMethod ?? "POST") : op.method;
  let path = op.kind === "webhook" ? "" : op.path;
  const query: [string, string][] = [];
  const headers: [string, string][] = [];
  for (const p of op.parameters) {
    if (opts.requiredOnly && !p.required) continue;
    const value = bounded(p.example !== undefined && opts.prefill ? p.example : exampleValue(p.schema, opts, nodes), nodes);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (p.in === "path") path = path.split(`{${p.name}}`).join(opts.prefill ? encodeURIComponent(text) : `{${p.name}}`);
    else if (p.in === "query") query.push([p.name, text]);
    else if (p.in === "header") headers.push([p.name, text]);
    else headers.push(["Cookie", `${p.name}=${text}`]);
  }
  const auth = op.security.find((alt) => alt.length > 0) ?? [];
  for (const a of auth) {
    if (a.type === "http" && a.scheme === "basic") headers.unshift(["Authorization", "Basic <encoded-value>"]);
    else if (a.type === "http" || a.type === "oauth2" || a.type === "openIdConnect") headers.unshift(["Authorization", "Bearer <token>"]);
    else if (a.type === "apiKey" && a.paramName !== undefined) {
      if (a.in === "query") query.push([a.paramName, "<api-key>"]);
      else if (a.in === "cookie") headers.push(["Cookie", `${a.paramName}=<api-key>`]);
      else headers.unshift([a.paramName, "<api-key>"]);
    }
  }
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeQueryValue(v)}`).join("&");
  const url = `${server}${path}${qs !== "" ? `?${qs}` : ""}`;
  const content = op.requestBody?.content[0];
  if (content === undefined || (opts.requiredOnly && op.requestBody?.required !== true)) return { method, url, headers };
  const explicit = opts.prefill ? content.examples[0]?.value : undefined;
  const body = bounded(explicit !== undefined ? explicit : exampleValue(content.schema, opts, nodes), nodes);
  return { method, url, headers: [...headers, ["Content-Type", content.mediaType]], body, contentType: content.mediaType };
}

/** A value the examples write, finite and within the page's budget when there is one (`SchemaBudget.data`). */
function bounded(value: unknown, nodes: SchemaBudget | undefined): unknown {
  return nodes !== undefined ? nodes.data(value) : finiteData(value);
}

/** Keep `<placeholders>` readable in URLs; encode everything else. */
function encodeQueryValue(v: string): string {
  return /^<[\w-]+>$/.test(v) ? v : encodeURIComponent(v);
}

type Kind = "json" | "form" | "multipart" | "text" | "none";
function bodyKind(r: ExampleRequest): Kind {
  if (r.body === undefined || r.contentType === undefined) return "none";
  const ct = r.contentType.toLowerCase();
  if (ct.includes("json")) return "json";
  if (ct.startsWith("application/x-www-form-urlencoded")) return "form";
  if (ct.startsWith("multipart/")) return "multipart";
  return "text";
}

function flatEntries(body: unknown): [string, string][] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [["data", String(body)]];
  return Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
}

const q1 = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const json = (v: unknown, indent = 2): string => JSON.stringify(v, null, indent);

/** Generators by language; each returns the code of one example. */
export const CODE_GENERATORS: Readonly<Record<ExampleLanguage, { readonly fence: string; readonly label: string; readonly generate: (r: ExampleRequest) => string }>> = {
  curl: {
    fence: "bash",
    label: "cURL",
    generate(r) {
      const lines = [`curl --request ${r.method}`, `  --url ${q1(r.url)}`];
      const kind = bodyKind(r);
      for (const [k, v] of r.headers) {
        if (kind === "multipart" && k === "Content-Type") continue; // curl sets the boundary
        lines.push(`  --header ${q1(`${k}: ${v}`)}`);
      }
      if (kind === "json") lines.push(`  --data ${q1(json(r.body))}`);
      else if (kind === "form") for (const [k, v] of flatEntries(r.body)) lines.push(`  --data-urlencode ${q1(`${k}=${v}`)}`);
      else if (kind === "multipart") for (const [k, v] of flatEntries(r.body)) lines.push(`  --form ${q1(`${k}=${v === "<file>" ? "@<file>" : v}`)}`);
      else if (kind === "text") lines.push(`  --data ${q1(String(r.body))}`);
      return lines.join(" \\\n");
    },
  },
  python: {
    fence: "python",
    label: "Python",
    generate(r) {
      const kind = bodyKind(r);
      const headers = r.headers.filter(([k]) => !(kind === "multipart" && k === "Content-Type"));
      const out = ["import requests", "", `url = ${JSON.stringify(r.url)}`];
      const args = ["url"];
      if (headers.length > 0) {
        out.push(`headers = {${headers.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`);
        args.push("headers=headers");
      }
      if (kind === "json") {
        out.push(`payload = ${pythonLiteral(r.body)}`);
        args.push("json=payload");
      } else if (kind === "form" || kind === "multipart") {
        out.push(`payload = ${pythonLiteral(Object.fromEntries(flatEntries(r.body)))}`);
        args.push(kind === "form" ? "data=payload" : "files=payload");
      } else if (kind === "text") {
        out.push(`payload = ${JSON.stringify(String(r.body))}`);
        args.push("data=payload");
      }
      out.push("", `response = requests.request(${JSON.stringify(r.method)}, ${args.join(", ")})`, "", "print(response.text)");
      return out.join("\n");
    },
  },
  javascript: { fence: "javascript", label: "JavaScript", generate: fetchExample },
  node: { fence: "javascript", label: "Node.js", generate: fetchExample },
  go: {
    fence: "go",
    label: "Go",
    generate(r) {
      const kind = bodyKind(r);
      const body = kind === "none" ? "nil" : "payload";
      const payload = kind === "json" ? json(r.body) : kind === "form" ? new URLSearchParams(flatEntries(r.body)).toString() : kind === "none" ? "" : String(typeof r.body === "string" ? r.body : json(r.body));
      const lines = ["package main", "", "import (", '\t"fmt"', '\t"io"', '\t"net/http"', ...(kind !== "none" ? ['\t"strings"'] : []), ")", "", "func main() {", `\turl := ${JSON.stringify(r.url)}`];
      if (kind !== "none") lines.push(`\tpayload := strings.NewReader(${goString(payload)})`);
      lines.push(`\treq, _ := http.NewRequest(${JSON.stringify(r.method)}, url, ${body})`);
      for (const [k, v] of r.headers) lines.push(`\treq.Header.Add(${JSON.stringify(k)}, ${JSON.stringify(v)})`);
      lines.push("\tres, err := http.DefaultClient.Do(req)", "\tif err != nil {", "\t\tpanic(err)", "\t}", "\tdefer res.Body.Close()", "\tbody, _ := io.ReadAll(res.Body)", "\tfmt.Println(string(body))", "}");
      return lines.join("\n");
    },
  },
  ruby: {
    fence: "ruby",
    label: "Ruby",
    generate(r) {
      const kind = bodyKind(r);
      const cls = r.method.charAt(0) + r.method.slice(1).toLowerCase();
      const lines = ['require "net/http"', 'require "uri"', ...(kind === "json" ? ['require "json"'] : []), "", `url = URI(${JSON.stringify(r.url)})`, "http = Net::HTTP.new(url.host, url.port)", 'http.use_ssl = url.scheme == "https"', "", `request = Net::HTTP::${cls}.new(url)`];
      for (const [k, v] of r.headers) lines.push(`request[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
      if (kind === "json") lines.push(`request.body = ${JSON.stringify(json(r.body, 0))}`);
      else if (kind === "form") lines.push(`request.set_form_data(${rubyHash(flatEntries(r.body))})`);
      else if (kind !== "none") lines.push(`request.body = ${JSON.stringify(String(r.body))}`);
      lines.push("", "response = http.request(request)", "puts response.read_body");
      return lines.join("\n");
    },
  },
  php: {
    fence: "php",
    label: "PHP",
    generate(r) {
      const kind = bodyKind(r);
      const lines = ["<?php", "", "$curl = curl_init();", "curl_setopt_array($curl, [", `  CURLOPT_URL => ${phpString(r.url)},`, "  CURLOPT_RETURNTRANSFER => true,", `  CURLOPT_CUSTOMREQUEST => ${phpString(r.method)},`];
      if (kind === "json") lines.push(`  CURLOPT_POSTFIELDS => json_encode(${phpValue(r.body)}),`);
      else if (kind === "form") lines.push(`  CURLOPT_POSTFIELDS => http_build_query(${phpValue(Object.fromEntries(flatEntries(r.body)))}),`);
      else if (kind !== "none") lines.push(`  CURLOPT_POSTFIELDS => ${phpString(typeof r.body === "string" ? r.body : json(r.body))},`);
      if (r.headers.length > 0) {
        lines.push("  CURLOPT_HTTPHEADER => [");
        for (const [k, v] of r.headers) lines.push(`    ${phpString(`${k}: ${v}`)},`);
        lines.push("  ],");
      }
      lines.push("]);", "", "$response = curl_exec($curl);", "curl_close($curl);", "", "echo $response;");
      return lines.join("\n");
    },
  },
};

function fetchExample(r: ExampleRequest): string {
  const kind = bodyKind(r);
  const headers = r.headers.filter(([k]) => !(kind === "multipart" && k === "Content-Type"));
  const lines: string[] = [];
  if (kind === "multipart") {
    lines.push("const form = new FormData();");
    for (const [k, v] of flatEntries(r.body)) lines.push(`form.append(${JSON.stringify(k)}, ${JSON.stringify(v)});`);
    lines.push("");
  }
  lines.push(`const response = await fetch(${JSON.stringify(r.url)}, {`, `  method: ${JSON.stringify(r.method)},`);
  if (headers.length > 0) {
    lines.push("  headers: {");
    for (const [k, v] of headers) lines.push(`    ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
    lines.push("  },");
  }
  if (kind === "json") lines.push(`  body: JSON.stringify(${json(r.body).split("\n").join("\n  ")}),`);
  else if (kind === "form") lines.push(`  body: new URLSearchParams(${json(Object.fromEntries(flatEntries(r.body))).split("\n").join("\n  ")}),`);
  else if (kind === "multipart") lines.push("  body: form,");
  else if (kind === "text") lines.push(`  body: ${JSON.stringify(String(r.body))},`);
  lines.push("});", "", "console.log(await response.text());");
  return lines.join("\n");
}

/** A JSON value written as a Python literal (`true` -> `True`, `null` -> `None`). */
export function pythonLiteral(v: unknown, indent = 0): string {
  const pad = "    ".repeat(indent + 1);
  const end = "    ".repeat(indent);
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((x) => pad + pythonLiteral(x, indent + 1)).join(",\n")}\n${end}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(x, indent + 1)}`).join(",\n")}\n${end}}`;
}

function goString(s: string): string {
  return s.includes("`") ? JSON.stringify(s) : `\`${s}\``;
}
function rubyHash(entries: [string, string][]): string {
  return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)} => ${JSON.stringify(v)}`).join(", ")} }`;
}
function phpString(s: string): string {
  return `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
function phpValue(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean" || typeof v === "number") return String(v);
  if (typeof v === "string") return phpString(v);
  if (Array.isArray(v)) return `[${v.map(phpValue).join(", ")}]`;
  return `[${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${phpString(k)} => ${phpValue(x)}`).join(", ")}]`;
}

/** One generated request example of a page (`generatedExamples`). */
export interface GeneratedExample {
  readonly lang: ExampleLanguage;
  readonly fence: string;
  readonly label: string;
  readonly code: string;
}

/**
 * The request examples a page writes in `languages`, within its budget: the first always (the
 * request's values were taken from the budget as they were built), each other charged as text a
 * page writes and left out when the budget has too little left. Each language writes the whole
 * request body again, so a body of the budget's size was written once per language: seven
 * languages made a page seven times the text the budget allows.
 */
export function generatedExamples(request: ExampleRequest, languages: readonly ExampleLanguage[], nodes: SchemaBudget): GeneratedExample[] {
  const out: GeneratedExample[] = [];
  for (const lang of languages) {
    const g = CODE_GENERATORS[lang];
    const code = g.generate(request);
    if (out.length > 0 && !nodes.takeText(code, "samples")) continue;
    out.push({ lang, fence: g.fence, label: g.label, code });
  }
  return out;
}
