import { accordion, accordionGroup, expandable } from "./accordions.js";
import { callout, CALLOUT_KINDS } from "./callouts.js";
import { card, cardGrid } from "./cards.js";
import { colorItem, colorRow, colors } from "./color.js";
import { codeGroup } from "./code-group.js";
import type { ComponentDefinition } from "./component.js";
import { paramField, responseField } from "./fields.js";
import { frame, panel } from "./frame.js";
import { githubRepo } from "./github.js";
import { badge, icon, latex, tooltip } from "./inline.js";
import { snippet } from "./snippet.js";
import { step, steps } from "./steps.js";
import { tab, tabs } from "./tabs.js";
import { column, tile } from "./tiles.js";
import { tree, treeFile, treeFolder } from "./tree.js";
import { update } from "./update.js";
import { prompt, view } from "./view.js";
import { visibility } from "./visibility.js";

/**
 * Every component the preview renders, by the name pages write. A name not here (and not an
 * HTML element) renders its children, and `check` lists it (`unknown-component`).
 */
export const COMPONENTS: Readonly<Record<string, ComponentDefinition>> = {
  ...Object.fromEntries(CALLOUT_KINDS.map((kind) => [kind, callout(kind)])),
  Card: card,
  CardGroup: cardGrid("CardGroup"),
  Columns: cardGrid("Columns"),
  Tabs: tabs,
  Tab: tab,
  CodeGroup: codeGroup(),
  RequestExample: codeGroup("Request example"),
  ResponseExample: codeGroup("Response example"),
  Steps: steps,
  Step: step,
  Accordion: accordion,
  AccordionGroup: accordionGroup,
  Expandable: expandable,
  Frame: frame,
  Panel: panel,
  ParamField: paramField,
  ResponseField: responseField,
  Update: update,
  Tooltip: tooltip,
  Badge: badge,
  Icon: icon,
  Visibility: visibility,
  Latex: latex,
  Snippet: snippet,
  Column: column,
  Tile: tile,
  Tree: tree("Tree"),
  FileTree: tree("FileTree"),
  "Tree.Folder": treeFolder,
  "Tree.File": treeFile,
  View: view,
  Prompt: prompt,
  Color: colors,
  "Color.Row": colorRow,
  "Color.Item": colorItem,
  "GitHub.Repo": githubRepo,
};

/** Whether a name is one of the components the preview renders. */
export function isKnownComponent(name: string): boolean {
  return Object.hasOwn(COMPONENTS, name);
}
