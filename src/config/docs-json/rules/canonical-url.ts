import { describe } from "../zod-issues.js";
import { isWebUrl } from "../../web-url.js";
import type { Rule } from "./rule.js";

/** Where links come from when docs.json's canonical URL is not used (`runtime.ts` DEFAULT_BASE_URL). */
const FALLBACK = "links in search results are made from --base-url, else http://localhost:3000";

/**
 * `seo.metatags.canonical` is the site's address, the `{docs_url}` of search results' links when
 * `--base-url` gives none: only an http or https URL is used, as for `--base-url`
 * (`javascript:alert(1)` made every link a script). The platform takes meta tags as strings: one
 * that is not a string is an error, a string that is not a web address a warning (the platform
 * writes it into the page's head as it is). Either way it is not used, and the finding says so.
 */
export const canonicalUrlRule: Rule = {
  codes: ["canonical-url"],
  check({ doc, report }) {
    const metatags = (doc as { seo?: { metatags?: unknown } } | undefined)?.seo?.metatags;
    if (metatags === null || typeof metatags !== "object" || Array.isArray(metatags)) return;
    const canonical = (metatags as { canonical?: unknown }).canonical;
    if (canonical === undefined) return;
    const path = "seo.metatags.canonical";
    if (typeof canonical !== "string") {
      report({ path, code: "canonical-url", severity: "error", message: `must be a string; got ${describe(canonical)}: not used, ${FALLBACK}` });
    } else if (!isWebUrl(canonical)) {
      report({ path, code: "canonical-url", severity: "warning", message: `must be an http or https URL to make links; got ${describe(canonical)}: not used, ${FALLBACK}` });
    }
  },
};
