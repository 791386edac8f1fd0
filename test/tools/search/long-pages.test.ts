import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A long page that uses a question's words all along, in sections about other things, must not
 * outrank the short page written about it (issue 24, "long pages that mention everything"): on
 * SaladCloud's docs `SALAD_MACHINE_ID` found a 25 KB Tailscale guide, which passes the variable
 * to a command five times, before the 3 KB page listing the variables. A page's summed prose and
 * code are length-normalised more (`pageB` 0.7 and 0.6, from 0.5) and the title weighs a little
 * more (0.2 of the score, from 0.15). Before: the guide first, 0.607 against 0.604.
 */
describe("long pages that mention everything", () => {
  const guide = ["---", "title: Add a VPN to Salad workloads", "---", ""];
  for (let i = 1; i <= 18; i++) {
    guide.push(
      `## Step ${i}`,
      "",
      `Step ${i} of joining each Salad instance to your private network. The machine gets a node id; check that the machine shows up in the admin console before going on.`,
      "",
      "```bash",
      `tailscale up --hostname "salad-$SALAD_MACHINE_ID" --authkey "$TS_KEY"`,
      "```",
      "",
    );
  }
  const variables = [
    "---",
    "title: Using environment variables",
    "---",
    "",
    "Salad sets these variables in every container:",
    "",
    "- `HOSTNAME`: defaults to the instance id.",
    "- `SALAD_ORGANIZATION_NAME`: the name of the organization.",
    "- `SALAD_ORGANIZATION_ID`: the id of the organization.",
    "- `SALAD_PROJECT_NAME`: the name of the project.",
    "- `SALAD_PROJECT_ID`: the id of the project.",
    "- `SALAD_CONTAINER_GROUP_ID`: the id of the container group.",
    "- `SALAD_INSTANCE_ID`: the id of the instance, new at each start.",
    "- `SALAD_MACHINE_ID`: the id of the machine the instance runs on.",
    "",
    "## In the portal",
    "",
    "Give each of your own variables a key and a value when you create the container group. Values are stored encrypted and are shown once.",
  ];
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/guides/vpn.mdx": guide.join("\n"),
      "/how-to/environment-variables.mdx": variables.join("\n"),
      "/reference/limits.mdx": ["---", "title: Limits", "---", "", "A Salad machine runs one instance of a group at a time."].join("\n"),
    }),
  );

  it("rank below the short page about what was asked", () => {
    const hits = index.search({ query: "SALAD_MACHINE_ID", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.section.heading, h.score])).toEqual([
      ["/how-to/environment-variables", "", 0.577],
      ["/guides/vpn", "Step 1", 0.575],
      ["/reference/limits", "", 0.181],
    ]);
  });
});
