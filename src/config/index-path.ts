/** The page path of a folder's index file (`/guides/index`), which navigation's `/guides` names
 *  too: a file there takes `/guides` as `guides.mdx` does (a generated API page's path as well). */
export function indexPathOf(path: string): string {
  return path === "/" ? "/index" : `${path}/index`;
}
