import type { ApiSettings } from "./api-settings.js";

/** The relay path every proxied playground request is POSTed to. */
export const RELAY_PATH = "/_svc/api/request";

/** How the playground behaves on one page (shown on the page and in `nav --json`). */
export interface PlaygroundSettings {
  /** `interactive`: everyone; `auth`: signed-in readers (in `groups`, when set); `none`: nobody. */
  readonly display: "interactive" | "auth" | "none";
  /** With `display: auth` and front matter `groups`: only readers in these groups. */
  readonly groups?: readonly string[];
  /** `public: true`: the page itself is readable by anyone (the playground rule still applies). */
  readonly public: boolean;
  /** `api.playground.url: full`: the endpoint line shows the full base URL. */
  readonly fullUrl: boolean;
  /** `proxy`: requests go through `POST /_svc/api/request`; `direct`: the browser calls the API. */
  readonly transport: "proxy" | "direct";
  /** `api.examples.prefill`: the request form starts filled with the spec's examples. */
  readonly prefill: boolean;
}

/** Page-level keys that change the playground (front matter, or `x-svc.metadata`). */
export interface PlaygroundMeta {
  readonly playground?: string;
  readonly groups?: readonly string[];
  readonly public?: boolean;
}

/** Resolve a page's playground: front matter `playground` over `api.playground.display`. */
export function resolvePlayground(api: ApiSettings, meta: PlaygroundMeta): PlaygroundSettings {
  const fm = meta.playground;
  const display = fm === "interactive" || fm === "auth" || fm === "none" ? fm : fm === "simple" ? "none" : api.playground.display;
  return {
    display,
    ...(display === "auth" && meta.groups !== undefined && meta.groups.length > 0 ? { groups: meta.groups } : {}),
    public: meta.public === true,
    fullUrl: api.playground.fullUrl,
    transport: api.playground.proxy ? "proxy" : "direct",
    prefill: api.examples.prefill,
  };
}

/** Who sees the playground. `auth` needs authentication configured: on a public site, nobody. */
export function playgroundVisible(
  settings: PlaygroundSettings,
  reader: { readonly authenticated: boolean; readonly groups: ReadonlySet<string>; readonly allGroups: boolean },
  authConfigured: boolean,
): boolean {
  if (settings.display === "interactive") return true;
  if (settings.display === "none") return false;
  if (!authConfigured || !reader.authenticated) return false;
  if (settings.groups === undefined || reader.allGroups) return true;
  return settings.groups.some((g) => reader.groups.has(g));
}

/** One line for the page: who can try the endpoint, and how requests travel. */
export function describePlayground(s: PlaygroundSettings): string {
  const who =
    s.display === "none"
      ? "no playground on this page"
      : s.display === "interactive"
        ? "interactive, for every reader"
        : s.groups !== undefined
          ? `signed-in readers in ${s.groups.join(", ")}`
          : "signed-in readers";
  if (s.display === "none") return who;
  const how = s.transport === "proxy" ? `requests are relayed by POST ${RELAY_PATH}` : "requests go from the browser straight to the API (it must allow CORS)";
  return `${who}; ${how}`;
}
