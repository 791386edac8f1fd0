import type { ElementContent } from "hast";
import { el, text } from "../hast.js";
import { attributeValue, flagAttribute, stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/**
 * `<Tree>` (alias `<FileTree>`): a file and folder tree, written either as `<Tree.Folder>` and
 * `<Tree.File>` or as a Markdown list (a trailing `/` marks a folder). Items made by the parts
 * are gathered into lists here; a Markdown list inside is kept as written and styled alike.
 */
export const tree = (name: string) => block(({ children }) => el("div", { className: ["tree"], dataComponent: name }, listed(children())));

/** `<Tree.Folder name defaultOpen openable={false}>`: a `<details>` that opens without any script. */
export const treeFolder = block(({ node, children }) => {
  const label = el("span", { className: ["tree-name"] }, [text(stringAttribute(node, "name") ?? "folder")]);
  const inner = listed(children());
  // `openable={false}`: a folder shown open that cannot be closed, as the platform draws it.
  if (attributeValue(node, "openable") === false) return el("li", { className: ["tree-folder"], dataComponent: "Tree.Folder" }, [label, ...inner]);
  return el("li", { className: ["tree-folder"], dataComponent: "Tree.Folder" }, [
    el("details", flagAttribute(node, "defaultOpen") ? { open: true } : {}, [el("summary", {}, [label]), ...inner]),
  ]);
});

/** `<Tree.File name highlight>`: one file; `highlight` marks it. */
export const treeFile = block(({ node }) =>
  el("li", { className: ["tree-file", ...(flagAttribute(node, "highlight") ? ["tree-highlight"] : [])], dataComponent: "Tree.File" }, [
    el("span", { className: ["tree-name"] }, [text(stringAttribute(node, "name") ?? "file")]),
  ]),
);

/** Runs of list items (`Tree.Folder`, `Tree.File`) wrapped in a `<ul>`; anything else kept in place. */
function listed(children: readonly ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  let run: ElementContent[] = [];
  const close = (): void => {
    if (run.length > 0) out.push(el("ul", {}, run));
    run = [];
  };
  for (const child of children) {
    if (child.type === "element" && child.tagName === "li") run.push(child);
    else if (child.type !== "text" || child.value.trim() !== "") {
      close();
      out.push(child);
    }
  }
  close();
  return out;
}
