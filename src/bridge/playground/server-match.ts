/**
 * Whether a relay target lies under a server a spec declares. Both sides are compared in one
 * normal form: scheme and host case-insensitive (the URL parser lowercases hosts, converts
 * international names to punycode and IPv4 spelt in decimal, octal or hex to dotted quads), the
 * default port the same as none, and the path case-sensitive, with dot segments resolved and
 * percent-escapes of unreserved characters decoded (RFC 3986 6.2.2). `{variables}` left in a
 * server URL stand for one host label, any port, or part of one path segment.
 */

/** A declared server compiled for matching. */
export interface ServerPattern {
  readonly protocol: string;
  /** Against `URL.hostname`. */
  readonly host: RegExp;
  /** The host as declared when it has no variable (`localhost`, `10.0.0.5`, `[::1]`). */
  readonly literalHost: string | undefined;
  /** Against `URL.port` ("" for the scheme's default port). */
  readonly port: RegExp;
  /** Against the normalized target path: the server's path, followed by "/" or the end (not
   *  consumed, so the match's length is where the operation's path starts). */
  readonly path: RegExp;
}

const DEFAULT_PORT: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/** Compile a server URL of a spec; undefined for one the relay cannot call (relative, not http(s), malformed). */
export function compileServer(server: string): ServerPattern | undefined {
  const m = /^(https?):\/\/([^/?#]*)([^?#]*)/i.exec(server.trim());
  if (m === null) return undefined;
  const protocol = `${(m[1] as string).toLowerCase()}:`;
  const authority = m[2] as string;
  // User info in a declared server is no address to call; a bracketed IPv6 host keeps its colons.
  const hostPort = /^(\[[^\]@]*\]|[^:@]*)(?::([^@]*))?$/.exec(authority);
  if (hostPort === null) return undefined;
  const [host, port] = [hostPort[1] as string, hostPort[2] ?? ""];
  if (host === "") return undefined;
  const hostPattern = compileHost(protocol, host);
  const portPattern = compilePort(protocol, port);
  const pathPattern = compilePath(m[3] as string);
  if (hostPattern === undefined || portPattern === undefined || pathPattern === undefined) return undefined;
  return { protocol, ...hostPattern, port: portPattern, path: pathPattern };
}

/** Same scheme, host and port as the server, and a path at or below the server's path. */
export function underServer(target: URL, server: ServerPattern): boolean {
  return (
    target.protocol === server.protocol &&
    server.host.test(target.hostname) &&
    server.port.test(target.port) &&
    server.path.test(normalizePath(target.pathname))
  );
}

/**
 * The target's path below the server's path (`/pets/7` of `/v1/pets/7` under `https://h/v1`),
 * normalized as the comparison is; undefined when the target is not under the server.
 */
export function pathBelow(target: URL, server: ServerPattern): string | undefined {
  const path = normalizePath(target.pathname);
  const m = server.path.exec(path);
  return m === null ? undefined : path.slice(m[0].length);
}

/**
 * An operation's path template compiled against a path below its server: literal parts exactly
 * (case-sensitive, in the same normal form as targets), each `{param}` one non-empty segment,
 * which holds no "/" but may hold an escaped one (`%2F`, `%5C`: a file path as one parameter,
 * `/files/a%2Fb.txt`, is sent as written; `slashReadings` keeps it from reading as another
 * operation's path). The empty path is the server's root, the same as "/"; otherwise a trailing
 * "/" counts (`/pets/` is not `/pets`). Undefined for a template the URL parser cannot read.
 */
export function compileOperationPath(template: string): RegExp | undefined {
  const parsed = parseUrl(`http://h${template.startsWith("/") ? template : `/${template}`}`);
  if (parsed === undefined) return undefined;
  const source = normalizePath(parsed.pathname)
    .split(/(%7B.*?%7D)/)
    .map((part) => (/^%7B.*%7D$/.test(part) ? "[^/]+" : escape(part)))
    .join("");
  return new RegExp(source === "/" ? "^/?$" : `^${source}$`);
}

/**
 * How an API that decodes escaped slashes before it routes may read a path below its server
 * (normalized, `pathBelow`): `%2F` and `%5C` as "/", once, and again after each decoding of
 * `%25` (`%252F` is `%2F` to an API that decodes twice), up to three rounds as `hidesDotSegment`
 * counts. Empty for a path with no escaped slash at any depth: it reads only as written.
 */
export function slashReadings(path: string): string[] {
  const out: string[] = [];
  let now = path;
  for (let round = 0; round < 3; round++) {
    const read = now.replace(/%2F|%5C/gi, "/");
    if (read !== now) out.push(read);
    if (!/%25/i.test(read)) break;
    now = normalizePath(read.replace(/%25/gi, "%"));
  }
  return out;
}

/**
 * Whether a target path hides a dot segment an API could resolve after decoding: `%2F..%2F`,
 * `..%5C`, or Tomcat-style `..;` path parameters. The URL parser has resolved the plain ones
 * already, so what is left would climb out of the server's path only on the API's side.
 */
export function hidesDotSegment(pathname: string): boolean {
  const dotSegment = (path: string): boolean =>
    path.split(/[/\\]/).some((segment) => {
      const name = segment.split(";")[0];
      return name === "." || name === "..";
    });
  // Byte by byte is enough: dots, slashes and semicolons are ASCII. Up to three rounds, for APIs
  // that decode twice (`%252F`).
  let path = pathname;
  for (let round = 0; round < 3; round++) {
    if (dotSegment(path)) return true;
    const decoded = path.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === path) return false;
    path = decoded;
  }
  return dotSegment(path);
}

function compileHost(protocol: string, host: string): Pick<ServerPattern, "host" | "literalHost"> | undefined {
  if (!host.includes("{")) {
    const parsed = parseUrl(`${protocol}//${host}/`);
    if (parsed === undefined) return undefined;
    return { host: new RegExp(`^${escape(parsed.hostname)}$`), literalHost: parsed.hostname };
  }
  // A variable is one DNS label as the URL parser leaves it (lowercase, punycode).
  const source = host
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith("{") ? "[a-z0-9-]+" : escape(part.toLowerCase())))
    .join("");
  return { host: new RegExp(`^${source}$`), literalHost: undefined };
}

function compilePort(protocol: string, port: string): RegExp | undefined {
  if (port === "") return /^$/;
  if (port.includes("{")) return /^\d*$/;
  if (!/^\d+$/.test(port) || Number(port) > 65535) return undefined;
  const normal = String(Number(port));
  return normal === DEFAULT_PORT[protocol] ? /^$/ : new RegExp(`^${normal}$`);
}

function compilePath(path: string): RegExp | undefined {
  // The URL parser resolves dot segments and escapes the rest as it does for targets; `{` and `}`
  // come out as %7B and %7D, which is where the variables are found again.
  const parsed = parseUrl(`http://h${path.startsWith("/") ? path : `/${path}`}`);
  if (parsed === undefined) return undefined;
  const prefix = normalizePath(parsed.pathname)
    .replace(/\/+$/, "")
    .split(/(%7B.*?%7D)/)
    .map((part) => (/^%7B.*%7D$/.test(part) ? "[^/]+" : escape(part)))
    .join("");
  return new RegExp(`^${prefix}(?=/|$)`);
}

/** RFC 3986 6.2.2: percent-escapes in upper case, and unreserved characters unescaped. */
function normalizePath(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function parseUrl(text: string): URL | undefined {
  return URL.canParse(text) ? new URL(text) : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
