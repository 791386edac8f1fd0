/**
 * What an endpoint page documents, from its `openapi` front matter, as words of the page: the
 * method and path (`POST /api/v1/namespaces/{namespaceKey}/flags`) or the webhook name, without
 * the spec file or URL that may come first (`/openapi.json webhook crawlPage`). The platform shows
 * the operation at the top of the page; when the spec is not in the repository (a remote URL) it
 * is all the page says of its subject beyond its title, and `create a flag in a namespace` must
 * find the page titled "Create Flag" whose path is under `/namespaces/`.
 */
export function operationWords(openapi: unknown): string {
  if (typeof openapi !== "string") return "";
  return openapi
    .trim()
    .split(/\s+/)
    .filter((w) => !/^https?:\/\//i.test(w) && !/\.(?:json|ya?ml)$/i.test(w))
    .join(" ");
}
