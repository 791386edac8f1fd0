import { el, text } from "../hast.js";
import { stringAttribute } from "../jsx-attributes.js";
import { block } from "./component.js";

/** `<GitHub.Repo repo="owner/name">`: a link to the repository (nothing is fetched to describe it). */
export const githubRepo = block(({ node }) => {
  const repo = stringAttribute(node, "repo");
  if (repo === undefined || !/^[\w.-]+\/[\w.-]+$/.test(repo)) return el("div", { className: ["card", "github-repo"], dataComponent: "GitHub.Repo" }, [text(repo ?? "GitHub repository")]);
  return el("a", { className: ["card", "github-repo"], href: `https://github.com/${repo}`, dataComponent: "GitHub.Repo" }, [el("div", { className: ["card-title"] }, [text(repo)])]);
});
