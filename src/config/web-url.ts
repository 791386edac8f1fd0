/**
 * Whether a text is an absolute http or https URL with a host: the only kind of address the
 * service builds links from (`--base-url`, docs.json's `seo.metatags.canonical`). Anything else
 * (`javascript:alert(1)`, `not a url`) went into every search result's link as written.
 */
export function isWebUrl(text: string): boolean {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url !== undefined && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}
