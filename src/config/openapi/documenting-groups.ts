import type { ApiOperation, ApiSpec } from "./model.js";

/** An operation of a spec, as one key. */
export function operationKey(source: string, op: Pick<ApiOperation, "kind" | "method" | "path">): string {
  return JSON.stringify([source, op.kind, op.method, op.path]);
}

/** An MDX page documenting an operation (front matter `openapi`), as far as its rule goes. */
interface Documenting {
  readonly spec: Pick<ApiSpec, "source">;
  readonly operation: Pick<ApiOperation, "kind" | "method" | "path">;
}

/**
 * The groups the MDX pages documenting an operation (front matter `openapi`) restrict it to, by
 * `operationKey`: the readers of any of them (their groups' union), as a spec file that pages name
 * is theirs; none when one of them restricts nobody (no `groups`, or `public: true`): a page every
 * reader reads shows the operation, so every reader's spec and its generated page keep it too.
 * `pageGroups` gives a page's groups, undefined when it restricts nobody.
 *
 * Every page documenting it counts, those a file before them at their path hides from some
 * readers too (`Site.shadowed`): their readers get the page and its reference there.
 *
 * One rule for the plan's numbering (`pageRank`), the generated page's groups
 * (`withDocumentingRule`), each reader's spec file (`specVariants`) and the schemas they keep
 * (`schemaAccessOf`). Before (adversary round 46 F7) pages without groups were passed over and a
 * reader had to pass every page's groups: an open page and a staff page documenting one
 * operation left it out of the anonymous reader's spec file while the open page showed it, which
 * told them a restricted page documents it.
 */
export function documentingGroups<T extends Documenting>(frontMatter: Iterable<T>, pageGroups: (page: T) => readonly string[] | undefined): Map<string, { readonly page: T; readonly groups: readonly string[] }> {
  const restricted = new Map<string, { page: T; groups: Set<string> }>();
  const open = new Set<string>();
  for (const fm of frontMatter) {
    const key = operationKey(fm.spec.source, fm.operation);
    const groups = pageGroups(fm);
    if (groups === undefined || groups.length === 0) {
      open.add(key);
      continue;
    }
    const entry = restricted.get(key) ?? { page: fm, groups: new Set<string>() };
    for (const g of groups) entry.groups.add(g);
    restricted.set(key, entry);
  }
  const out = new Map<string, { readonly page: T; readonly groups: readonly string[] }>();
  for (const [key, { page, groups }] of restricted) if (!open.has(key)) out.set(key, { page, groups: [...groups] });
  return out;
}
