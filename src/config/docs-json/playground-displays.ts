/** `interactive`, `auth` and `none` are the specification's; `simple` is accepted because real
 *  sites use it and the platform documents it (a warning says it is read as `none`). Apart from the schema (`schema.ts`)
 *  so that reading a page's front matter (`page-meta.ts`) does not build docs.json's zod schema,
 *  which a start from the persistent cache never uses (issue 22). */
export const PLAYGROUND_DISPLAYS = ["interactive", "auth", "none", "simple"] as const;
