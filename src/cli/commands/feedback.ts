import { LIMITS } from "../../limits.js";
import type { FieldIssue } from "../../store/feedback/issues.js";
import { isStatus, STATUSES } from "../../store/feedback/model.js";
import type { QueryParam } from "../../store/feedback/query.js";
import { type ReviewContext, changeFeedbackStatus, exportFeedback, listFeedback } from "../../engine/use-cases/review-feedback.js";
import { localContext } from "../../vfs/request-context.js";
import { commandValue } from "../access-state.js";
import { defineCommand } from "../command.js";
import { csvHeader, csvRow, formatEntries } from "../feedback-format.js";
import { CliError, type CliIO } from "../io.js";
import { withDir, withJson, withState } from "../options.js";
import { type Project, projectStores, resolveProject } from "../project.js";

const ACTIONS = ["list", "set-status", "export"] as const;

/** The GET's query parameters and the flags that carry them. */
const FLAGS: Readonly<Record<QueryParam, string>> = {
  dateFrom: "date-from",
  dateTo: "date-to",
  source: "source",
  status: "status",
  limit: "limit",
  cursor: "cursor",
};

type Args = { [flag: string]: unknown } & { action: (typeof ACTIONS)[number]; id?: string | undefined; status?: string | undefined };

export const feedbackCommand = defineCommand({
  command: "feedback <action> [id] [new-status]",
  describe: "Read and triage collected feedback: list, set-status <id> <status>, export --format csv|json",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "list, set-status or export" })
      .positional("id", { type: "string", describe: "set-status: the entry's id (fb_...)" })
      .positional("new-status", { type: "string", describe: `set-status: ${STATUSES.join(", ")}` })
      .option("date-from", { type: "string", describe: "Entries created at or after (ISO 8601, or YYYY-MM-DD = UTC midnight)" })
      .option("date-to", { type: "string", describe: "Entries created strictly before (exclusive; same forms)" })
      .option("source", { type: "string", describe: "code_snippet, contextual, agent or thumbs_only" })
      .option("status", { type: "string", describe: "Comma-separated statuses (pending,in_progress,...)" })
      .option("limit", { type: "string", describe: `list: entries per page, ${LIMITS.feedback.minPageSize} to ${LIMITS.feedback.maxPageSize} (default ${LIMITS.feedback.defaultPageSize})` })
      .option("cursor", { type: "string", describe: "list: continue from a previous page's next cursor" })
      .option("format", { choices: ["csv", "json"] as const, describe: "export: output format (default csv)" }),
  run: async (args, io) => {
    const project = await resolveProject(io, args);
    switch (args.action) {
      case "list":
        return list(io, project, args as unknown as Args);
      case "export":
        return exportAll(io, project, args as unknown as Args);
      case "set-status":
        return setStatus(io, project, args.id, args["new-status"], args.json);
    }
  },
});

async function list(io: CliIO, project: Project, args: Args): Promise<number> {
  rejectFlags(args, "list", ["format"]);
  const page = await withReview(project, "read", async (context) => {
    const listed = await listFeedback(context, flagPairs(args));
    // A cursor from elsewhere is a mistake in the command line, named by its flag.
    if (!listed.ok && "refusal" in listed) throw new CliError(`--cursor: ${listed.refusal.message}`, 2);
    return commandValue(listed, usage);
  });
  if (args.json === true) {
    io.stdout(`${JSON.stringify(page, null, 2)}\n`);
  } else if (page.feedback.length === 0) {
    io.stdout("No feedback matches.\n");
  } else {
    io.stdout(formatEntries(page.feedback));
    if (page.nextCursor !== null) io.stdout(`More: add --cursor ${page.nextCursor} (with the same filters).\n`);
  }
  return 0;
}

/** Every matching entry, newest first, written as the use case reads them page by page. */
async function exportAll(io: CliIO, project: Project, args: Args): Promise<number> {
  rejectFlags(args, "export", ["limit", "cursor", "json"]);
  const format = (args.format as "csv" | "json" | undefined) ?? "csv";
  let count = 0;
  await withReview(project, "read", async (context) => {
    const entries = commandValue(exportFeedback(context, flagPairs(args)), usage);
    io.stdout(format === "csv" ? csvHeader() : "[");
    for await (const entry of entries) {
      io.stdout(format === "csv" ? csvRow(entry) : `${count === 0 ? "\n" : ",\n"}${JSON.stringify(entry)}`);
      count++;
    }
  });
  if (format === "json") io.stdout(count === 0 ? "]\n" : "\n]\n");
  io.stderr(`Exported ${count} ${count === 1 ? "entry" : "entries"}.\n`);
  return 0;
}

async function setStatus(io: CliIO, project: Project, id: string | undefined, status: string | undefined, json: boolean): Promise<number> {
  if (id === undefined || status === undefined) throw new CliError(`feedback set-status needs an entry id and a status: feedback set-status fb_... ${STATUSES.join("|")}`, 2);
  if (!isStatus(status)) throw new CliError(`status ${JSON.stringify(status)} is not one of ${STATUSES.join(", ")}`, 2);
  const { entry, previous } = await withReview(project, "write", async (context) => commandValue(await changeFeedbackStatus(context, id, status)));
  if (json) io.stdout(`${JSON.stringify(entry, null, 2)}\n`);
  else io.stdout(previous === status ? `${entry.id} is already ${status}.\n` : `${entry.id}: ${previous} -> ${status}\n`);
  return 0;
}

/** The filter flags as the GET's query parameters, for the use case's one validation. */
function flagPairs(args: Args): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [param, flag] of Object.entries(FLAGS)) {
    const value = args[flag];
    if (typeof value === "string") pairs.push([param, value]);
  }
  return pairs;
}

/** The use case's issues named by flag, one per line. */
function usage(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `--${FLAGS[i.param as QueryParam] ?? i.param}: ${i.message}`).join("\n");
}

function rejectFlags(args: Args, action: string, flags: readonly string[]): void {
  for (const flag of flags) {
    if (args[flag] !== undefined && args[flag] !== false) throw new CliError(`--${flag} does not apply to feedback ${action}`, 2);
  }
  if (args.id !== undefined) throw new CliError(`feedback ${action} takes no positional argument; got ${JSON.stringify(args.id)}`, 2);
}

/**
 * Run a use case with the project's feedback store, closing it afterwards. A read where no
 * feedback was ever stored (no database yet) gets no store, and the use case answers empty:
 * reading must not create state (a typo in --state would otherwise leave a stray database).
 */
async function withReview<T>(project: Project, use: "read" | "write", run: (context: ReviewContext) => Promise<T>): Promise<T> {
  const stores = projectStores(project);
  try {
    const store = use === "read" && !stores.has("feedback") ? undefined : await stores.feedback();
    return await run({ request: localContext(), projectId: project.id, store });
  } finally {
    await stores.close();
  }
}
