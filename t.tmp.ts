import { loadSite } from "./src/vfs/load-site.js";
import { placementOf } from "./src/vfs/site.js";
for (const site of ["spree","cline","open-wearables"]) {
  const l = await loadSite(`/work/shared/corpora/${site}`);
  const out = [...l.site.pages.values()].filter(p => placementOf(l.site, p) === undefined).map(p => p.file.path);
  console.log(site, out.length, out.slice(0, 400).join(" "));
}
