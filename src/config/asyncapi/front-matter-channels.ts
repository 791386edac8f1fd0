import type { Diagnostic } from "../diagnostic.js";
import { API_CODES } from "../openapi/api-codes.js";
import { resolveSpecName } from "../openapi/match.js";
import { sourcesForUnfoundName } from "../openapi/unfound-spec-name.js";
import type { AsyncChannel, AsyncSpec } from "./model.js";

/** An MDX page's AsyncAPI channel reference from front matter `asyncapi`. */
export interface FrontMatterChannelReference {
  readonly pagePath: string;
  /** Repository-relative file (`realtime/chat.mdx`), for messages. */
  readonly file: string;
  /** The `asyncapi` value as written. */
  readonly value: string;
  /** 1-based line of the `asyncapi` key in the file, for messages. */
  readonly line?: number;
  /** The repository file the reference's spec name was found at (`frontMatterSpecFile`), when it
   *  names one and it was found; the plan loads and matches against it. */
  readonly spec?: string;
  /** The page's other API key (`openapi` or `openapi-schema`), when it has one: the page shows
   *  that reference, not the channel. */
  readonly shadowedBy?: { readonly key: "openapi" | "openapi-schema"; readonly value: string };
}

/** An MDX page whose front matter `asyncapi` matched a channel. */
export interface FrontMatterChannel {
  readonly pagePath: string;
  readonly spec: AsyncSpec;
  readonly channel: AsyncChannel;
}

/** What the channel phase sees of the loaded specs. */
export interface ChannelSpecs {
  readonly asyncapi: ReadonlyMap<string, AsyncSpec>;
  /** Every OpenAPI spec loaded: a file naming one is the wrong kind, said so. */
  readonly openapi: ReadonlySet<string>;
  /** Referenced but not loaded: a page against them is neither shown nor refuted. */
  readonly unavailable: ReadonlySet<string>;
}

/** `"<channel>"` or `"<spec file> <channel>"`; undefined for anything else. */
export function parseChannelReference(value: string): { readonly file?: string; readonly channel: string } | undefined {
  const parts = value.trim().split(/\s+/);
  if (parts.length === 1 && parts[0] !== "") return { channel: parts[0] as string };
  if (parts.length === 2) return { file: parts[0] as string, channel: parts[1] as string };
  return undefined;
}

/**
 * A spec's channel a reference names: by its key in `channels` (the channel id, what navigation
 * entries and the platform's examples name), and when no key is that, by its `address` (2.x
 * addresses are the keys), so `asyncapi: "/chat/{room}"` finds the channel at that address.
 */
export function findChannel(spec: AsyncSpec, name: string): AsyncChannel | undefined {
  return spec.channels.find((c) => c.id === name) ?? spec.channels.find((c) => c.address === name);
}

/**
 * Which MDX pages document an AsyncAPI channel through front matter `asyncapi` (the platform's
 * "channel page"). A reference naming no file is looked for in every AsyncAPI spec of the site,
 * the first by file name when several hold it (the platform's rule for `openapi`), with a
 * warning. Only specs and channels every reader of the page keeps (`kept`) are candidates or
 * shown, so what a page shows never depends on what its readers may not read. Every problem is
 * a warning at the page's `asyncapi` line: the page still shows its prose.
 */
export function planFrontMatterChannels(
  refs: readonly FrontMatterChannelReference[],
  specs: ChannelSpecs,
  diagnostics: Diagnostic[],
  kept: ((pagePath: string, spec: AsyncSpec, channel: AsyncChannel) => string | undefined) | undefined,
  namesSearched: boolean,
): Map<string, FrontMatterChannel> {
  const out = new Map<string, FrontMatterChannel>();
  for (const ref of refs) {
    const warn = (message: string): void =>
      void diagnostics.push({ severity: "warning", file: ref.file, ...(ref.line !== undefined ? { line: ref.line } : {}), path: "asyncapi", message: `front matter asyncapi "${ref.value}" ${message}`, code: API_CODES.frontMatterChannel });
    if (ref.shadowedBy !== undefined) {
      warn(`is on a page with front matter ${ref.shadowedBy.key} "${ref.shadowedBy.value}" as well: the page shows the ${ref.shadowedBy.key} reference only, no channel; keep one of the two keys`);
      continue;
    }
    const written = parseChannelReference(ref.value);
    if (written === undefined) {
      warn(`is not a channel reference ("<channel>" or "<spec file> <channel>"): the page shows no channel`);
      continue;
    }
    const whyNot = (spec: AsyncSpec, channel: AsyncChannel): string | undefined => kept?.(ref.pagePath, spec, channel);
    if (written.file !== undefined) {
      // A name the load found no one repository file for: only a remote spec (`sourcesForUnfoundName`).
      const source = ref.spec ?? resolveSpecName(written.file, sourcesForUnfoundName([...specs.asyncapi.keys(), ...specs.openapi, ...specs.unavailable], namesSearched));
      if (source === undefined) {
        warn(`names no spec found in the repository ("${written.file}", from its root, then this page's folder): the page shows no channel`);
        continue;
      }
      if (specs.unavailable.has(source)) continue;
      const spec = specs.asyncapi.get(source);
      if (spec === undefined) {
        warn(`names ${source}, which is not an AsyncAPI spec: the page shows no channel`);
        continue;
      }
      const channel = findChannel(spec, written.channel);
      if (channel === undefined) {
        warn(`matches no channel of ${source} (by channel id, then address): the page shows no channel`);
        continue;
      }
      const why = whyNot(spec, channel);
      if (why !== undefined) {
        warn(`names a channel that ${why}: it is not shown on the page`);
        continue;
      }
      out.set(ref.pagePath, { pagePath: ref.pagePath, spec, channel });
      continue;
    }
    // Naming no file: the site's AsyncAPI specs by file name, those whose channel every reader
    // of the page keeps (a spec only restricted pages name is not a candidate for others).
    const held = [...specs.asyncapi.values()]
      .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))
      .flatMap((spec) => {
        const channel = findChannel(spec, written.channel);
        return channel !== undefined ? [{ spec, channel }] : [];
      });
    const holding = held.filter((h) => whyNot(h.spec, h.channel) === undefined);
    const first = holding[0];
    if (first !== undefined) {
      out.set(ref.pagePath, { pagePath: ref.pagePath, ...first });
      if (holding.length > 1) {
        warn(`names no spec, and ${holding.length} specs have that channel (${holding.map((h) => h.spec.source).join(", ")}): the page shows ${first.spec.source}'s, the first by file name; name one as "<spec file> ${written.channel}"`);
      }
      continue;
    }
    const restricted = held[0];
    if (restricted !== undefined) {
      warn(`names a channel that ${whyNot(restricted.spec, restricted.channel) as string}: it is not shown on the page`);
      continue;
    }
    // A spec that is not loaded (remote and not fetched, or broken: its own finding says why) may hold it.
    if (specs.unavailable.size > 0) continue;
    warn(specs.asyncapi.size === 0 ? "names no spec, and the site has no AsyncAPI spec: the page shows no channel" : `matches no channel of the site's AsyncAPI specs (by channel id, then address): the page shows no channel`);
  }
  return out;
}
