/**
 * The preview's pages (browser code, bundled into /_svc/assets/preview.js): tabs and code
 * groups, copy buttons, links into folded parts, the search box, the agent panel and live
 * reload. Everything the page shows from the server is put on it as text, never as markup.
 */
import { wireAgent } from "./preview/agent.js";
import { previewData } from "./preview/dom.js";
import { wireLiveReload } from "./preview/live.js";
import { wireSearch } from "./preview/search.js";
import { wireCopy, wireTabs, wireTargets } from "./preview/tabs.js";

const data = previewData();
wireTabs();
wireCopy();
wireTargets();
wireSearch(data);
wireAgent(data);
wireLiveReload(data);
// When the page became usable, in ms since navigation started (`npm run bench` reads it).
document.body.dataset["readyAt"] = String(Math.round(performance.now()));
document.body.dataset["ready"] = "true";
