/**
 * The text a reader sees of a line of a Mermaid diagram (a ```mermaid fence, which the platform
 * draws): node and edge labels, messages, notes, titles; not its syntax. Searched and shown as
 * the page's prose: read as code, a snippet showed the diagram's source (`A[Start] --> B{Is
 * it?}`, `direction LR`), and its keywords were indexed as the page's code. A line that is only
 * syntax (the diagram's type, styles, comments) has no text ("").
 */
export function diagramText(line: string): string {
  let t = line.trim();
  if (t === "" || t.startsWith("%%")) return "";
  const first = /^[\w-]+/.exec(t)?.[0] ?? "";
  if (STYLE_WORDS.has(first)) return "";
  if (DIAGRAM_TYPES.has(first)) {
    // `graph LR`, `flowchart TD`: the type and its direction are syntax; `pie title Pets` keeps its title.
    t = t.slice(first.length).replace(/^\s+(?:TB|TD|BT|RL|LR)\b/, "");
  }
  // `participant A as Alice`: the name shown, not the id.
  const actor = /^(?:participant|actor)\s+\S+\s+as\s+(.*)$/.exec(t);
  if (actor !== null) t = actor[1] as string;
  else t = t.replace(/^(?:participant|actor)\s+/, "");
  // Each pattern below starts on one character it needs, never on a run it may have to give
  // back (`\s*`, `[<|]*`): tried at each start of a long run, such a pattern re-read it.
  t = t
    .replace(/\s+/g, " ")
    .replace(/<br ?\/?>/gi, " ")
    // `:::class` shorthand; a node's id before its shape: `A[Start]`, `db[(Store)]`.
    .replace(/:::[\w-]+/g, "")
    .replace(/(^|[ ;&])[\w.-]+(?=[[({])/g, "$1")
    // Arrows and links: `-->`, `-.->`, `==>`, `--o`, `||--o{`, `->>`, `--x`, `-)` (the bars
    // and braces beside them go with the shapes' brackets).
    .replace(/-{1,2}(?:>>|>|x|\))(?=[ \w"]|$)/g, " ")
    .replace(/[-=.~]{2,}[->o]*/g, " ")
    // Shapes' brackets, edge labels' pipes, quotes, chaining.
    .replace(/[[\](){}|"<>;&]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  // Read as prose: never a heading's or a quote's mark first.
  return t.replace(/^[#>*+-]+\s*/, "");
}

const DIAGRAM_TYPES = new Set([
  "graph", "flowchart", "sequenceDiagram", "classDiagram", "stateDiagram", "stateDiagram-v2", "erDiagram", "gantt", "pie", "journey",
  "gitGraph", "mindmap", "timeline", "quadrantChart", "xychart-beta", "sankey-beta", "block-beta", "requirementDiagram", "C4Context",
  "C4Container", "C4Component", "C4Dynamic", "C4Deployment", "architecture-beta", "packet-beta", "kanban", "radar-beta", "zenuml",
]);

/** Lines that style or number a diagram, or link its nodes to URLs: nothing a reader reads. */
const STYLE_WORDS = new Set(["classDef", "class", "style", "linkStyle", "click", "direction", "autonumber", "accTitle", "accDescr", "end", "dateFormat", "axisFormat", "tickInterval", "excludes", "todayMarker"]);
