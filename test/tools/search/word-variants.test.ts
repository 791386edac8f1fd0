import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A question and the page answering it often write one word two ways (issue 24, the vocabulary
 * mismatches of the fifth round): British and American spelling, an adverb and its adjective, a
 * short form and the long one. Each case is a page written one way, a question the other way,
 * and a page beside it that holds the question's spelling in passing.
 */
function ranked(files: Record<string, string>, query: string): [string, string][] {
  const index = new SearchIndex();
  index.sync(inlineSite(files));
  return index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading]);
}

const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

describe("word variants", () => {
  // Before: `cancelled` and `cancellation` were the stem `cancell`, `canceled` was `cancel`, so
  // the refunds page (cancellation fee) came first and the page about canceled invoices second.
  it("British spelling finds the American one, and the doubled l meets the single one", () => {
    expect(
      ranked(
        {
          "/billing/void-invoices.mdx": page("Void invoices", "A voided invoice is canceled for good. Canceled invoices stay in the list with their number, so accountants can find them."),
          "/billing/refunds.mdx": page("Refunds", "A cancellation fee may apply when a refund is issued after the trial.", "", "## Refund an invoice", "", "Pick the invoice, then the amount to give back."),
          "/billing/organisation.mdx": page("Organization settings", "Set the behavior of new invoices for the whole organization: currency, language and numbering."),
        },
        "cancelled invoices",
      ),
    ).toEqual([
      ["/billing/void-invoices", ""],
      ["/billing/refunds", ""],
      ["/billing/organisation", ""],
    ]);
    expect(
      ranked(
        {
          "/settings/organization.mdx": page("Organization settings", "Set the behavior of new invoices for the whole organization: currency, language and numbering."),
          "/settings/organisation-members.mdx": page("Members", "Invite people to your organisation workspace by email."),
        },
        "change invoice behaviour for my organisation",
      ),
    ).toEqual([
      ["/settings/organization", ""],
      ["/settings/organisation-members", ""],
    ]);
  });

  // Before: the stemmer left `-ys` whole, so `keys` and `key` were two words: "license keys
  // validate" ranked the List License Keys pages (title `keys`, a response with `validations`)
  // above Validate License Key, whose title names every word of the question (Polar's API pages,
  // an adversary's trial of 2026-12-04). The same for days, arrays, gateways.
  it("a plural of a word ending in a vowel and y finds the singular, and back", () => {
    const files = {
      "/api/validate-license-key.mdx": page("Validate License Key", "Check that a license key is valid for the customer.", "", "## Response", "", "The key, its status and its activations."),
      "/api/list-license-keys.mdx": page("List License Keys", "Every license key of the organization, with their validations count and last validated time.", "", "## Response", "", "Keys, paged, with validations and the time each was last validated."),
      "/guides/retention.mdx": page("Retention", "Logs are kept for 30 days, then deleted."),
      "/guides/limits.mdx": page("Limits", "A log line is at most one day old when it is shown."),
    };
    expect(ranked(files, "license keys validate")).toEqual([
      ["/api/validate-license-key", ""],
      ["/api/list-license-keys", "Response"],
    ]);
    expect(ranked(files, "how many day are logs kept")).toEqual([
      ["/guides/retention", ""],
      ["/guides/limits", ""],
    ]);
  });

  // Before: `-is` was always a singular's ending, so `APIs` was `apis` and never met `API`; and
  // `cookies` lost `-ies` for `-y` while `cookie` lost its `e`, `cooky` and `cooki`.
  it("an acronym's plural in -is finds the acronym, and a plural in -ies its singular in -ie", () => {
    const files = {
      "/reference/api-overview.mdx": page("API overview", "Every API of the platform takes JSON and answers JSON."),
      "/reference/apis-and-sdks.mdx": page("Changelog", "New APIs this month: exports and imports."),
      "/browser/cookie.mdx": page("Save a cookie", "Keep the session cookie between runs so you stay signed in."),
      "/browser/cookies-faq.mdx": page("FAQ", "Why do cookies disappear? They expire when the browser closes."),
    };
    expect(ranked(files, "which APIs are there")).toEqual([
      ["/reference/api-overview", ""],
      ["/reference/apis-and-sdks", ""],
    ]);
    expect(ranked(files, "cookies")).toEqual([
      ["/browser/cookie", ""],
      ["/browser/cookies-faq", ""],
    ]);
  });

  // Before: `format` lost `-at` as `translate` does, and was `form`: on a forms product, a question
  // about a date format found every page about forms.
  it("a format is not a form", () => {
    const files = {
      "/forms/create.mdx": page("Create a form", "A form collects answers. Add fields to the form, then publish the form."),
      "/settings/dates.mdx": page("Dates", "Dates are shown in the format you pick: day first or month first."),
    };
    expect(ranked(files, "date format")).toEqual([["/settings/dates", ""]]);
    expect(ranked(files, "forms")).toEqual([["/forms/create", ""]]);
  });

  // Before: `plane` lost its `e` and was `plan`, and `note` was `not`: a question about a pricing
  // plan found the control plane's page first.
  it("a plane is not a plan, and a note is not a not", () => {
    const files = {
      "/gateway/control-plane.mdx": page("Control plane limits", "The control plane keeps at most 500 gateways in sync."),
      "/billing/plans.mdx": page("Plans", "Each plan has its own limits on requests and seats."),
    };
    expect(ranked(files, "plan limits")).toEqual([
      ["/billing/plans", ""],
      ["/gateway/control-plane", ""],
    ]);
    expect(ranked({ "/guides/notes.mdx": page("Release notes", "What changed in each release.") }, "not")).toEqual([]);
    // `notation` lost `-ation` and was `not` too, until it became an exception.
    expect(ranked({ "/api/paths.mdx": page("Field paths", "Use dot notation for nested fields.") }, "not")).toEqual([]);
    // And `foundation` was `found`: "page not found" met every page on foundation models.
    const models = { "/models/foundation.mdx": page("Foundation models", "Pick one of the foundation models for your agent."), "/errors/404.mdx": page("Errors", "A 404 means the page was not found.") };
    expect(ranked(models, "page not found")).toEqual([["/errors/404", ""]]);
  });

  // Before: a short word lost its final `e` as a long one does (`configure` -> `configur`), so
  // `state` was `stat`, `mode` was `mod` and `locale` was `local`: a question about a stream's
  // state found the statistics page first, "go mod" found the modes, and a locale question every
  // page on local development. A short word keeps its `e`, as Porter2 has it, and its `-ed` and
  // `-ing` forms get it back (`stated`, `coding`).
  it("a state is not a stat, a mode not a mod, a locale not local", () => {
    const files = {
      "/streams/state.mdx": page("Stream state", "A stream is paused, running or stopped; its state changes when you pause it."),
      "/streams/stats.mdx": page("Stats", "Stats count the messages a stream delivered: stat counters reset every hour."),
      "/go/modules.mdx": page("Go modules", "Run go mod tidy after you add the SDK; mods pin each version."),
      "/settings/modes.mdx": page("Dark mode", "Pick a mode: light, dark or the system's."),
      "/settings/locale.mdx": page("Locale", "The locale sets the language of dates and numbers."),
      "/dev/local.mdx": page("Local development", "Run the server locally, with local files."),
    };
    expect(ranked(files, "stream stats")).toEqual([
      ["/streams/stats", ""],
      ["/streams/state", ""],
    ]);
    expect(ranked(files, "stated")).toEqual([["/streams/state", ""]]);
    expect(ranked(files, "go mod")).toEqual([["/go/modules", ""]]);
    expect(ranked(files, "locales")).toEqual([["/settings/locale", ""]]);
  });

  // Before: `-at` came off every word ending so, as off a verb in `-ate` (`translate` meets
  // `translation`), so `treat` was `tre` as `tree` is, and `threat` was `thre` as `three` is: "treat
  // warnings as errors" found the file tree's page.
  it("a tree is not a treat, three is not a threat", () => {
    const files = {
      "/guides/tree.mdx": page("File tree", "The file tree shows every folder of the project as a tree."),
      "/build/warnings.mdx": page("Warnings", "Warnings are treated as errors when the strict flag is on."),
      "/security/model.mdx": page("Threat model", "What an attacker can reach, and what we defend against."),
      "/plans/limits.mdx": page("Plan limits", "Each plan holds up to three projects."),
    };
    expect(ranked(files, "treat warnings as errors")).toEqual([["/build/warnings", ""]]);
    expect(ranked(files, "threats")).toEqual([["/security/model", ""]]);
  });

  // Before: `-ment` came off `instrument` (`instru`) while `instrumentation` lost `-ation` and was
  // `instrument`: "instrument my app" never met the page titled Instrumentation.
  it("a verb in -ument meets its noun in -umentation", () => {
    const files = {
      "/observability/instrumentation.mdx": page("Instrumentation", "Add spans to your app's code with the SDK's tracer, then export them."),
      "/guides/midi.mdx": page("MIDI", "Connect instruments to the app over MIDI."),
    };
    expect(ranked(files, "instrument my app")).toEqual([
      ["/observability/instrumentation", ""],
      ["/guides/midi", ""],
    ]);
  });

  // Before: `automatically` was the stem `automatical`, which no title has; the manual page,
  // which says "automatically" in passing, came first.
  it("an adverb finds the page titled with its adjective", () => {
    expect(
      ranked(
        {
          "/dunning/automatic.mdx": page("Automatic dunning", "Campaigns email customers with overdue balances, several times, until they pay."),
          "/dunning/manual.mdx": page("Manual dunning", "Email customers with overdue balances a payment request yourself; nothing is sent automatically."),
        },
        "email customers with overdue balances automatically",
      ),
    ).toEqual([
      ["/dunning/automatic", ""],
      ["/dunning/manual", ""],
    ]);
  });

  // Before: "auth" matched `authentication` only as a prefix (weight 0.5 x 4/9) and the page
  // saying "auth" in passing came first; the other way, "configuration" never matched `config`.
  it("a short form finds the long one and back", () => {
    expect(
      ranked(
        {
          "/api/authentication.mdx": page("Authentication", "Send your API key as a bearer token in the header of every request."),
          "/api/errors.mdx": page("Errors", "A request with a missing header fails with 401 and an auth error in the body."),
          "/api/pagination.mdx": page("Pagination", "Pass the cursor of the last page in a header to get the next one."),
        },
        "auth header",
      ),
    ).toEqual([
      ["/api/authentication", ""],
      ["/api/errors", ""],
      ["/api/pagination", ""],
    ]);
    expect(
      ranked(
        {
          "/self-host/config.mdx": page("Config file", "Every setting of the server lives in `config.yaml`: ports, storage and the database URL."),
          "/self-host/upgrade.mdx": page("Upgrade", "Back up the server and its database before an upgrade; the file format is unchanged."),
        },
        "server configuration file",
      ),
    ).toEqual([
      ["/self-host/config", ""],
      ["/self-host/upgrade", ""],
    ]);
  });

  // Twenty-fifth round: a noun made from a verb was a stem of its own (`compatibility`,
  // `deletion`, `approval`), so the page titled with it lost to a page holding the question's
  // other words; each came second before.
  it("a verb finds the page titled with its noun", () => {
    expect(
      ranked(
        {
          "/sdk/compatibility.mdx": page("Compatibility", "The SDK runs on Node 18 and later, Deno and Bun; older runtimes are not supported."),
          "/sdk/install.mdx": page("Install the SDK on Node 18", "Install the SDK with npm on Node 18, then import the client."),
        },
        "is the sdk compatible with node 18",
      ),
    ).toEqual([
      ["/sdk/compatibility", ""],
      ["/sdk/install", ""],
    ]);
    expect(
      ranked(
        {
          "/workspaces/deletion.mdx": page("Workspace deletion", "An owner can end a workspace from its settings; its projects and members go with it."),
          "/workspaces/members.mdx": page("Workspace members", "Invite members to a workspace, or delete a member who left."),
        },
        "delete a workspace",
      ),
    ).toEqual([
      ["/workspaces/deletion", ""],
      ["/workspaces/members", ""],
    ]);
    expect(
      ranked(
        {
          "/reviews/approvals.mdx": page("Approvals", "A change needs a second reviewer's approval before it is merged."),
          "/reviews/merging.mdx": page("Merge a change", "A change is merged once its checks pass; a reviewer can approve it from the review panel."),
        },
        "who has to approve a change before it is merged",
      ),
    ).toEqual([
      ["/reviews/approvals", ""],
      ["/reviews/merging", ""],
    ]);
  });
});
