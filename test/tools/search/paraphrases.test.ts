import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A question and the page answering it often name one thing with words sharing no letters (issue
 * 24, the paraphrase misses of the tune half): "write my own tool" for Create Custom Tools,
 * "re-run" for Replay, "loop over every item" for Iteration, "erase" for deleting. Each case is
 * the page written one way, a question the other way, and pages beside it that hold the
 * question's other words.
 */
function ranked(files: Record<string, string>, query: string): [string, string][] {
  const index = new SearchIndex();
  index.sync(inlineSite(files));
  return index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading]);
}

const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

describe("paraphrases", () => {
  // Before: "own" matched nothing, and the tools overview (an agent and its tools, several times)
  // came before the page on writing custom tools.
  it("own finds custom", () => {
    expect(
      ranked(
        {
          "/concepts/tools.mdx": page("Tools", "An agent uses tools to act. Give an agent a tool list; each tool has a name and a description the agent reads."),
          "/learn/create-custom-tools.mdx": page("Create custom tools", "Subclass the base class and implement its run method to make a custom tool."),
          "/learn/agents.mdx": page("Agents", "An agent has a role, a goal and a backstory."),
        },
        "write my own tool for an agent",
      ),
    ).toEqual([
      ["/learn/create-custom-tools", ""],
      ["/concepts/tools", ""],
      ["/learn/agents", ""],
    ]);
  });

  // Before: "re-run" matched the tasks page saying "run" and "tasks"; the replay page never.
  it("re-run finds replay", () => {
    expect(
      ranked(
        {
          "/concepts/tasks.mdx": page("Tasks", "A task is run by an agent. Tasks run in order, and each task's output goes to the next one."),
          "/learn/replay.mdx": page("Replay tasks from the latest kickoff", "Replay any task of the latest kickoff from the command line, with its inputs and context."),
        },
        "re-run a task from the last execution",
      ),
    ).toEqual([
      ["/learn/replay", ""],
      ["/concepts/tasks", ""],
    ]);
  });

  // Before: the variables page (a list, items) came first and the iteration node second; the
  // loop node keeps its place, as it names the question's own word.
  it("loop finds iteration, and erase finds delete", () => {
    expect(
      ranked(
        {
          "/nodes/iteration.mdx": page("Iteration", "Run the same steps for each item of an array, one after another or in parallel."),
          "/nodes/variables.mdx": page("Variables", "A variable holds a list of items: strings, numbers or objects."),
        },
        "loop over every item in a list",
      ),
    ).toEqual([
      ["/nodes/iteration", ""],
      ["/nodes/variables", ""],
    ]);
    expect(
      ranked(
        {
          "/privacy/data.mdx": page("Data privacy", "To have us delete the personal data we store about you, email the privacy team."),
          "/account/emails.mdx": page("Email addresses", "The personal email address you sign up with is stored on your account and shown to admins."),
        },
        "erase the personal information you store about me",
      ),
    ).toEqual([
      ["/privacy/data", ""],
      ["/account/emails", ""],
    ]);
  });

  // Twenty-fifth round: everyday words for what docs name by the technical word. Before, each
  // question found the page holding its other words first (the background jobs page, the generic
  // upload page, the palette page) and the answer second.
  it("photo finds image, folder finds directory, hotkey finds shortcut", () => {
    expect(
      ranked(
        {
          "/tutorials/transparent-images.mdx": page("Transparent images", "Remove the background of an image and keep its subject on a transparent layer."),
          "/guides/background-jobs.mdx": page("Remove background jobs", "Remove a background job from the queue before it starts, or retry it from the jobs page."),
        },
        "remove the background from a photo",
      ),
    ).toEqual([
      ["/tutorials/transparent-images", ""],
      ["/guides/background-jobs", ""],
    ]);
    expect(
      ranked(
        {
          "/cli/upload-directory.mdx": page("Upload a directory", "Pass --recursive to send every file under a directory in one call."),
          "/guides/files.mdx": page("Upload files", "Upload a file with the dashboard; it lists every file you upload and lets you rename one."),
        },
        "upload a whole folder of files",
      ),
    ).toEqual([
      ["/cli/upload-directory", ""],
      ["/guides/files", ""],
    ]);
    expect(
      ranked(
        {
          "/reference/shortcuts.mdx": page("Keyboard shortcuts", "Change the shortcut that opens the command palette in the settings."),
          "/guides/palette.mdx": page("Command palette", "Open the command palette to run any command; change its position in the settings."),
        },
        "change the hotkey that opens the command palette",
      ),
    ).toEqual([
      ["/reference/shortcuts", ""],
      ["/guides/palette", ""],
    ]);
  });
});
