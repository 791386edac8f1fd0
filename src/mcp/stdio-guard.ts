import { type Readable, Transform } from "node:stream";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { jsonComplexity, jsonComplexityMessage, type JsonComplexity } from "../json-complexity.js";
import { LIMITS } from "../limits.js";
import { MESSAGE_ERRORS, paramsProblem, shapeProblem } from "./message-problems.js";
import { rawIds, rawMember, readableId } from "./raw-ids.js";
import { RefusalLog } from "./refusal-log.js";

export interface StdioGuardOptions {
  /** Where the answers go: the transport's standard output (one JSON-RPC message a line). */
  readonly stdout: NodeJS.WritableStream;
  /** Standard error: one short line per message refused, the first few of an episode (`RefusalLog`). */
  readonly log: (line: string) => void;
  /** The clock that tells episodes of refusals apart. */
  readonly now: () => number;
}

interface Refuser {
  readonly stdout: NodeJS.WritableStream;
  readonly refusals: RefusalLog;
}

/** The longest message the guard reports in a stderr line. */
const MAX_LOGGED = 200;

/**
 * Standard input as the SDK's stdio transport is given it, each line checked first (adversary
 * round 14 F3). The SDK drops a line it cannot parse and answers nothing: a request with an id
 * but `params: [1]`, `"x"` or null, a `_meta` or progress token of the wrong type, `jsonrpc:
 * "1.0"`, broken JSON, left its client waiting to its timeout, with a zod dump on stderr. Here
 * such a line is answered on stdout with the error HTTP answers it with (`message-problems.ts`:
 * the same code and message) and the request's id, `null` where it has none that can be read
 * (JSON-RPC 2.0 section 5); a notification is never answered (section 4.1), only logged; and
 * stderr gets one short line, for the first few refusals of an episode (`refusal-log.ts`: a flood
 * of bad lines wrote a line each, without bound). Lines that pass go on to the SDK unchanged, save a UTF-8 byte order
 * mark at the start of a line, which is dropped (some Windows tools write one; the JSON after it
 * is what the client meant). A line the SDK's buffer cannot hold (with its newline: 10 MiB) is
 * answered here, `-32600` with the request's id when the line's first bytes name it, and dropped
 * as it arrives: passed on, it made the SDK's transport close itself, after which nothing was
 * answered while the process lived on (adversary round 16 F5).
 */
export function guardedStdin(stdin: NodeJS.ReadableStream, options: StdioGuardOptions): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** The start of a line too long to keep, while the rest of it is dropped; its length so far. */
  let dropping: { head: string; bytes: number } | undefined;
  const refuser: Refuser = { stdout: options.stdout, refusals: new RefusalLog(options.log, options.now) };
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, end);
        start = end + 1;
        if (dropping !== undefined) {
          refuseLong(refuser, dropping.head, dropping.bytes + piece.length);
          dropping = undefined;
          continue;
        }
        const line = pendingBytes > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        if (line.length > MAX_LINE_BYTES) {
          refuseLong(refuser, headOf([line]), line.length);
          continue;
        }
        const kept = checkedLine(line.toString("utf8"), refuser);
        if (kept !== undefined) this.push(`${kept}\n`);
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        if (dropping !== undefined) dropping.bytes += rest.length;
        else {
          pending.push(rest);
          pendingBytes += rest.length;
          if (pendingBytes > MAX_LINE_BYTES) {
            dropping = { head: headOf(pending), bytes: pendingBytes };
            pending = [];
            pendingBytes = 0;
          }
        }
      }
      done();
    },
    flush(done) {
      refuser.refusals.close();
      done();
    },
  });
  stdin.pipe(guard);
  return guard;
}

/** The longest line the SDK's buffer takes: it refuses a chunk that would make it hold more than its maximum, and the line's newline is in it. */
const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1;

/** How much of a line too long to keep is kept to find its id in (clients write the id before the params). */
const HEAD_BYTES = 64 * 1024;

function headOf(pieces: readonly Buffer[]): string {
  const head: Buffer[] = [];
  let bytes = 0;
  for (const piece of pieces) {
    if (bytes >= HEAD_BYTES) break;
    head.push(piece.subarray(0, HEAD_BYTES - bytes));
    bytes += head[head.length - 1]!.length;
  }
  return Buffer.concat(head).toString("utf8");
}

/**
 * Answer a line too long to read whole: with its id when the kept start of it names one whole (a
 * string, or an integer, not cut off where the kept bytes end), else null (JSON-RPC 2.0 section 5).
 */
function refuseLong(options: Refuser, head: string, bytes: number): void {
  const id = readableId(head);
  const text = `Invalid Request: the line is ${bytes} bytes long; a message over stdio may be at most ${MAX_LINE_BYTES} bytes`;
  options.stdout.write(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: MESSAGE_ERRORS.invalidRequest, message: text })}}\n`);
  options.refusals.refused(`MCP: refused request ${id}: ${MESSAGE_ERRORS.invalidRequest} ${text}`);
}

/** The line for the SDK, or undefined when it was answered (or is blank). */
function checkedLine(raw: string, options: Refuser): string | undefined {
  let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.trim() === "") return undefined;
  // Only the depth here: a stdio server has one client, and more values stall nobody else.
  const complex = jsonComplexity(text, STDIO_JSON_BOUNDS);
  if (complex !== undefined) {
    refuseComplex(options, text, complex);
    return undefined;
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    refuse(options, undefined, MESSAGE_ERRORS.parseError, `Parse error: the line is not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  const shape = shapeProblem(message);
  if (shape !== undefined) {
    refuse(options, message, MESSAGE_ERRORS.invalidRequest, `Invalid Request: ${shape}`, text);
    return undefined;
  }
  const params = paramsProblem(message);
  if (params !== undefined) {
    refuse(options, message, MESSAGE_ERRORS.invalidParams, `Invalid params: ${params}`, text);
    return undefined;
  }
  try {
    parseJSONRPCMessage(message);
  } catch {
    // What the SDK's schema refuses beyond the checks above, in its HTTP transport's words.
    refuse(options, message, MESSAGE_ERRORS.invalidRequest, "Bad Request: the request body is not a valid JSON-RPC message", text);
    return undefined;
  }
  return text;
}

/** What stdio lines are held to (`LIMITS.clientJson`): the depth, which the SDK's schemas need. */
const STDIO_JSON_BOUNDS = { maxDepth: LIMITS.clientJson.maxDepth, maxValues: Number.POSITIVE_INFINITY };

/**
 * Answer a line nested too deeply to parse (`jsonComplexity`), read as text: with its id when the
 * line names one, and only logged when it names a method but no id (a notification).
 */
function refuseComplex(options: Refuser, text: string, problem: JsonComplexity): void {
  const message = `Invalid Request: the line ${jsonComplexityMessage(problem)}`;
  const id = readableId(text);
  const notification = id === "null" && rawIds(text) === undefined && rawMember(text, "method") !== undefined;
  if (!notification) options.stdout.write(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: MESSAGE_ERRORS.invalidRequest, message, data: problem })}}\n`);
  options.refusals.refused(`MCP: refused ${notification ? "a notification" : `request ${id}`}: ${MESSAGE_ERRORS.invalidRequest} ${message}`);
}

/**
 * Answer a refused message (a notification only logged), and log one line. A numeric id is echoed
 * as the line wrote it (`rawIds`): read as a double, `12345678901234567890` came back changed.
 */
function refuse(options: Refuser, message: unknown, code: number, text: string, line = ""): void {
  const o = typeof message === "object" && message !== null && !Array.isArray(message) ? (message as Record<string, unknown>) : undefined;
  const notification = o !== undefined && !("id" in o) && typeof o.method === "string" && o.jsonrpc === "2.0";
  const raw = typeof o?.id === "number" ? rawIds(line) : undefined;
  const id = typeof raw === "string" ? raw : JSON.stringify(o !== undefined && typeof o.id === "string" ? o.id : null);
  if (!notification) options.stdout.write(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code, message: text })}}\n`);
  const what = `${notification ? "a notification" : `request ${id}`}: ${code} ${text}`;
  options.refusals.refused(`MCP: refused ${what.length > MAX_LOGGED ? `${what.slice(0, MAX_LOGGED)}...` : what}`);
}
