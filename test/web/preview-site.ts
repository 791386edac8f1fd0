import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeRepo } from "../openapi/helpers.js";
import { PNG } from "./site.js";

/**
 * The site of the preview's browser tests: two languages, each with two versions, tabs, groups
 * (one folded), a page of every component, a snippet every reader sees and one only staff see,
 * a page only staff may read, an image in the repository, and a page written to attack.
 */
export function previewRepo(): string {
  const versions = (prefix: string, title: string) => [
    {
      version: "v2",
      default: true,
      tabs: [
        {
          tab: "Guides",
          groups: [
            { group: "Start", pages: [`${prefix}index`, `${prefix}components`, { group: "More", expanded: false, pages: [`${prefix}more/deep`] }] },
            ...(prefix === "" ? [{ group: "Team", pages: ["team/handbook"] }] : []),
          ],
        },
        { tab: title, groups: [{ group: "API", pages: [`${prefix}reference/limits`] }] },
      ],
    },
    { version: "v1", groups: [{ group: "Start", pages: [`${prefix}v1/index`, `${prefix}v1/components`] }] },
  ];
  const page = (title: string, body: string, extra = "") => `---\ntitle: ${title}\n${extra}---\n\n${body}\n`;
  const files: Record<string, unknown> = {
    "docs.json": {
      name: "Orbit Docs",
      styling: { eyebrows: "breadcrumbs" },
      navigation: {
        languages: [
          { language: "en", default: true, versions: versions("", "Reference") },
          { language: "fr", versions: versions("fr/", "Référence") },
        ],
      },
    },
    "snippets/shared.mdx": "Shared text for {product}.\n",
    "snippets/secret.mdx": "---\ngroups: [staff]\n---\n\nSTAFF-SNIPPET-42 only staff read this.\n",
    "team/handbook.mdx": page("Team handbook", "HANDBOOK-7 The on-call rota.", "groups: [staff]\n"),
    "hostile.mdx": page(
      "Hostile",
      [
        "<script>window.__pwned = 1</script>",
        "",
        '<div data-testid="clicky" onClick={() => { window.__pwned = 2 }}>click me</div>',
        "",
        '<a data-testid="js-link" href="javascript:window.__pwned=3">js link</a> and [md link](javascript:window.__pwned=4)',
        "",
        "{window.__pwned = 5}",
        "",
        '<img src="/images/logo.png" onError={() => { window.__pwned = 6 }} onLoad={() => { window.__pwned = 7 }} />',
        "",
        '<iframe src="https://evil.example/frame"></iframe>',
        "",
        "![remote](https://evil.example/x.png)",
        "",
        "<style>{`body { display: none }`}</style>",
        "",
        "Still here.",
      ].join("\n"),
    ),
  };
  for (const [prefix, lang] of [["", "en"], ["fr/", "fr"]] as const) {
    files[`${prefix}index.mdx`] = page(lang === "en" ? "Introduction" : "Introduction FR", `Welcome to Orbit (${lang}, v2).`);
    files[`${prefix}more/deep.mdx`] = page("Deep dive", "Deep text.");
    files[`${prefix}reference/limits.mdx`] = page("Limits", "ORBIT-LIMITS-3 Requests per minute.");
    files[`${prefix}v1/index.mdx`] = page("Introduction v1", `Old Orbit (${lang}).`);
    files[`${prefix}v1/components.mdx`] = page("Components v1", `The old components page (${lang}).`);
    files[`${prefix}components.mdx`] = page(
      "Components",
      [
        "import Shared from '/snippets/shared.mdx';",
        ...(lang === "en" ? ["import Secret from '/snippets/secret.mdx';"] : []),
        "",
        "<Note>NOTE-TEXT Read this first.</Note>",
        "",
        "<Warning>Careful.</Warning>",
        "",
        "## Install",
        "",
        "<Tabs>",
        '  <Tab title="npm">TAB-NPM run npm install orbit</Tab>',
        '  <Tab title="yarn">TAB-YARN run yarn add orbit</Tab>',
        "</Tabs>",
        "",
        "<CodeGroup>",
        "```bash npm",
        "npm install orbit # the CLI",
        "```",
        "```bash yarn",
        "yarn add orbit # the CLI",
        "```",
        "</CodeGroup>",
        "",
        "## Steps",
        "",
        "<Steps>",
        '  <Step title="Create a project">STEP-ONE text.</Step>',
        '  <Step title="Deploy it">STEP-TWO text.</Step>',
        "</Steps>",
        "",
        "<AccordionGroup>",
        '  <Accordion title="What is Orbit?">ACCORDION-BODY Orbit is a test site.</Accordion>',
        "</AccordionGroup>",
        "",
        '<Shared product="Orbit" />',
        "",
        ...(lang === "en" ? ["<Secret />", ""] : []),
        '<ParamField body="user.email" type="string" required>The email.</ParamField>',
        "",
        '<Mystery answer="42">MYSTERY-CHILD shown as its children.</Mystery>',
        "",
        "![Orbit logo](/images/logo.png)",
      ].join("\n"),
    );
  }
  const root = writeRepo(files);
  mkdirSync(join(root, "images"));
  writeFileSync(join(root, "images/logo.png"), PNG);
  return root;
}
