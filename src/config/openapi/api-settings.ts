import { z } from "zod";
import type { Diagnostic } from "../diagnostic.js";
import { API_CODES } from "./api-codes.js";

/** Code example languages we generate, and the names docs.json may use for them. */
export const EXAMPLE_LANGUAGES = ["curl", "python", "javascript", "node", "go", "ruby", "php"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];
const LANGUAGE_ALIASES: Readonly<Record<string, ExampleLanguage>> = {
  curl: "curl",
  bash: "curl",
  sh: "curl",
  shell: "curl",
  python: "python",
  py: "python",
  javascript: "javascript",
  js: "javascript",
  node: "node",
  nodejs: "node",
  typescript: "javascript",
  ts: "javascript",
  go: "go",
  golang: "go",
  ruby: "ruby",
  rb: "ruby",
  php: "php",
};

/** `api.*` of docs.json, as generation and the playground use it. */
export interface ApiSettings {
  readonly playground: {
    readonly display: "interactive" | "auth" | "none";
    /** `url: full` shows the full base URL in the endpoint line. */
    readonly fullUrl: boolean;
    /** False when `proxy: false`: the browser calls the API itself (CORS needed) instead of the relay. */
    readonly proxy: boolean;
  };
  readonly examples: {
    readonly languages: readonly ExampleLanguage[];
    readonly requiredOnly: boolean;
    readonly prefill: boolean;
  };
}

export const DEFAULT_API_SETTINGS: ApiSettings = {
  playground: { display: "interactive", fullUrl: false, proxy: true },
  examples: { languages: ["curl", "python", "javascript"], requiredOnly: false, prefill: false },
};

const ApiBlock = z
  .object({
    playground: z
      .object({
        display: z.enum(["interactive", "auth", "none", "simple"]).optional(),
        url: z.enum(["full", "relative"]).optional(),
        proxy: z.boolean().optional(),
      })
      .loose()
      .optional(),
    examples: z
      .object({
        languages: z.array(z.string()).optional(),
        defaults: z.enum(["required", "all"]).optional(),
        prefill: z.boolean().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/**
 * Read `api.playground` and `api.examples`. Wrong values fall back to the defaults with a
 * diagnostic (the site keeps serving); unknown example languages are warnings.
 */
export function readApiSettings(docsJson: unknown): { settings: ApiSettings; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const api = typeof docsJson === "object" && docsJson !== null ? (docsJson as Record<string, unknown>).api : undefined;
  if (api === undefined) return { settings: DEFAULT_API_SETTINGS, diagnostics };
  const parsed = ApiBlock.safeParse(api);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      diagnostics.push({ severity: "error", file: "docs.json", path: ["api", ...issue.path.map(String)].join(".").replace(/\.(\d+)(?=\.|$)/g, "[$1]"), message: issue.message, code: API_CODES.settings });
    }
    return { settings: DEFAULT_API_SETTINGS, diagnostics };
  }
  const pg = parsed.data.playground ?? {};
  const ex = parsed.data.examples ?? {};
  const languages: ExampleLanguage[] = [];
  (ex.languages ?? []).forEach((name, i) => {
    const lang = LANGUAGE_ALIASES[name.toLowerCase()];
    if (lang === undefined) {
      diagnostics.push({
        severity: "warning",
        file: "docs.json",
        path: `api.examples.languages[${i}]`,
        message: `no code examples are generated for "${name}" (supported: ${Object.keys(LANGUAGE_ALIASES).join(", ")})`,
        code: API_CODES.settings,
      });
    } else if (!languages.includes(lang)) {
      languages.push(lang);
    }
  });
  return {
    settings: {
      playground: {
        // `simple` (the predecessor's "no try-it, just the endpoint") shows no playground.
        display: pg.display === "simple" ? "none" : (pg.display ?? "interactive"),
        fullUrl: pg.url === "full",
        proxy: pg.proxy !== false,
      },
      examples: {
        languages: ex.languages === undefined ? DEFAULT_API_SETTINGS.examples.languages : languages,
        requiredOnly: ex.defaults === "required",
        prefill: ex.prefill === true,
      },
    },
    diagnostics,
  };
}
