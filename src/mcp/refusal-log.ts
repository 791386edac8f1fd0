import { LIMITS } from "../limits.js";

interface Episode {
  last: number;
  reminded: number;
  /** Refusals in the episode, logged or not. */
  count: number;
  /** Refusals counted since the last line that reported them. */
  unlogged: number;
}

/**
 * The stderr lines of a stdio server for the input it refuses, by episode (issue 25): a client
 * that writes a flood of bad lines got one stderr line per line, without bound, and the lines
 * that matter (the first, naming the client's bug) were buried. The first
 * `LIMITS.mcp.refusalsLoggedPerEpisode` refusals of an episode are logged as they are; later
 * ones are counted, with a line giving the count at most every `refusalReminderMs` (written with
 * the next refusal after that time) and when the input ends (`close`); a refusal after
 * `refusalQuietMs` without one opens a new episode. Decided by the given clock, never by how
 * fast lines arrive; the answers on stdout are not touched (each request is still answered).
 */
export class RefusalLog {
  private episode: Episode | undefined;

  constructor(
    private readonly log: (message: string) => void,
    private readonly now: () => number,
  ) {}

  /** One line refused; `line` says what and why (logged only while the episode's share lasts). */
  refused(line: string): void {
    const t = this.now();
    let e = this.episode;
    if (e === undefined || t - e.last >= LIMITS.mcp.refusalQuietMs) {
      this.close();
      e = this.episode = { last: t, reminded: t, count: 0, unlogged: 0 };
    }
    e.last = t;
    e.count++;
    const burst = LIMITS.mcp.refusalsLoggedPerEpisode;
    if (e.count < burst) return this.log(line);
    if (e.count === burst) return this.log(`${line} (later refused lines are counted, not logged, until none for ${LIMITS.mcp.refusalQuietMs / 1000} s)`);
    e.unlogged++;
    if (t - e.reminded >= LIMITS.mcp.refusalReminderMs) this.report(e, t);
  }

  /** The count of the episode's refusals not yet reported, if any (the input ended, or a new episode opens). */
  close(): void {
    const e = this.episode;
    this.episode = undefined;
    if (e !== undefined && e.unlogged > 0) this.report(e, this.now());
  }

  private report(e: Episode, t: number): void {
    this.log(`MCP: ${e.unlogged} more lines refused, not logged (${e.count} in this episode)`);
    e.unlogged = 0;
    e.reminded = t;
  }
}
