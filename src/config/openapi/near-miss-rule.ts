import { lookalikeKeys, lookalikeOf } from "../rule-key-fold.js";
import { escapeNonAscii } from "../escape-non-ascii.js";
import { API_CODES } from "./api-codes.js";
import { EXTENSION_KEYS } from "./operations.js";
import type { SpecWarning } from "./spec-warning.js";

/**
 * What `check` says of one object of a spec about the near-miss rule keys `readExtension` reads
 * as a rule (fail closed): each key that folds to `x-svc`/`x-mint`, to `metadata` inside one, or to
 * `groups` inside that `metadata` without being written so, named by its JSON pointer, with the
 * ask to rename it. And a `public` written as a string, which is read as a page's is (`"true"`
 * opens the part, anything else does not) where the platform reads only a boolean.
 * `keys`: the object's keys from the spec's root.
 */
export function nearMissWarnings(node: Readonly<Record<string, unknown>>, keys: readonly string[]): SpecWarning[] {
  const out: SpecWarning[] = [];
  const near = (at: readonly string[], key: string, name: string): void => {
    out.push({
      message: `the key ${shown(key)} at ${pointer(at)} is read as ${name}, restricting the part to the groups it names (to no reader if it names none); the hosted platform reads only a key written exactly ${name} and would show the part to everyone: rename the key`,
      code: API_CODES.unreadableRule,
      at: [...at, key],
    });
  };
  const metadataOf = (at: readonly string[], metadata: unknown): void => {
    if (!isObj(metadata)) return;
    // A near-miss `groups` beside an exact one is not read (as on a page): nothing to warn of.
    if (!Object.hasOwn(metadata, "groups")) for (const key of lookalikeKeys(metadata, ["groups"])) near(at, key, "groups");
    const flag = metadata.public;
    if (typeof flag === "string") {
      out.push({
        message: `${pointer([...at, "public"])}: public must be true or false; got ${JSON.stringify(flag)}; ${flag === "true" ? "read as true: the part is readable by anyone, whatever its groups" : "read as false"}`,
        code: API_CODES.unreadableRule,
        at: [...at, "public"],
      });
    }
  };
  const extension = (at: readonly string[], ext: unknown): void => {
    if (!isObj(ext)) return;
    if (Object.hasOwn(ext, "metadata")) metadataOf([...at, "metadata"], ext.metadata);
    for (const key of lookalikeKeys(ext, ["metadata"])) {
      near(at, key, "metadata");
      metadataOf([...at, key], ext[key]);
    }
  };
  for (const key of EXTENSION_KEYS) if (Object.hasOwn(node, key)) extension([...keys, key], node[key]);
  for (const key of lookalikeKeys(node, EXTENSION_KEYS)) {
    near(keys, key, lookalikeOf(key, EXTENSION_KEYS) ?? key);
    extension([...keys, key], node[key]);
  }
  return out;
}

/** A JSON pointer (RFC 6901) to the keys, as `#/paths/~1users/get`, characters past ASCII written as escapes. */
function pointer(keys: readonly string[]): string {
  return escapeNonAscii(`#/${keys.map((k) => k.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`);
}

/**
 * A key quoted, its characters past ASCII written as escapes (as a page's front matter key is):
 * a look-alike letter (`x-\u0455vc`) shows which character is not the one it looks like.
 */
function shown(key: string): string {
  return escapeNonAscii(JSON.stringify(key));
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
