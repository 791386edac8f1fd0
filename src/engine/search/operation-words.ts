/**
 * What an endpoint page documents, from its `openapi` front matter, as words of the page when the
 * page does not show it: the method and path (`POST /api/v1/namespaces/{namespaceKey}/flags`) or
 * the webhook name, without the spec file or URL that may come first (`/openapi.json webhook
 * crawlPage`). When the spec is not in the repository (a remote URL) the page is its title and a
 * request example, and `create a flag in a namespace` must still find the page titled "Create
 * Flag" whose path is under `/namespaces/`. A page whose text already has the path (the rendered
 * reference of a spec found, or the author's own words) gets nothing more: counted twice, endpoint
 * pages would again outrank the guide written in the same words.
 */
export function operationWords(openapi: unknown, body: string): string {
  if (typeof openapi !== "string") return "";
  const tokens = openapi.trim().split(/\s+/);
  // What comes before the method (or `webhook`) names the spec: a file, a URL, a bare name.
  const at = tokens.findIndex((t, i) => i + 1 < tokens.length && OPERATION_KINDS.has(t.toLowerCase()));
  if (at === -1) return "";
  const words = tokens.slice(at);
  const subject = words.at(-1) as string;
  return body.toLowerCase().includes(subject.toLowerCase()) ? "" : words.join(" ");
}

const OPERATION_KINDS = new Set(["get", "post", "put", "patch", "delete", "head", "options", "trace", "webhook"]);
