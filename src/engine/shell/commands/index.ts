import { awkCommand } from "./awk.js";
import { catCommand } from "./cat.js";
import type { ShellCommandFactory } from "./command.js";
import { cutCommand } from "./cut.js";
import { diffCommand } from "./diff.js";
import { duCommand } from "./du.js";
import { FILE_ERROR_COMMANDS } from "./file-errors.js";
import { findCommand } from "./find/find.js";
import { foldCommand } from "./fold.js";
import { egrepCommand, fgrepCommand, grepCommand } from "./grep/grep.js";
import { headCommand } from "./head.js";
import { jqCommand } from "./jq.js";
import { lsCommand } from "./ls/ls.js";
import { odCommand } from "./od.js";
import { READ_ONLY_COMMANDS } from "./read-only.js";
import { realpathCommand } from "./realpath.js";
import { rgCommand } from "./rg/rg.js";
import { sedCommand } from "./sed/sed.js";
import { seqCommand } from "./seq.js";
import { sortCommand } from "./sort.js";
import { statCommand } from "./stat.js";
import { tacCommand } from "./tac.js";
import { tailCommand } from "./tail.js";
import { treeCommand } from "./tree/tree.js";
import { uniqCommand } from "./uniq.js";
import { wcCommand } from "./wc.js";
import { whichCommand } from "./which.js";
import { pasteCommand, trCommand } from "./wrapped.js";
import { xargsCommand } from "./xargs.js";
import { xxdCommand } from "./xxd.js";

/**
 * Our implementations that replace just-bash built-ins: the hot commands (fast paths over the
 * view) and the ones whose output must match GNU tools and ripgrep byte for byte.
 */
export const SHELL_COMMANDS: readonly ShellCommandFactory[] = [
  rgCommand,
  grepCommand,
  egrepCommand,
  fgrepCommand,
  lsCommand,
  treeCommand,
  catCommand,
  headCommand,
  tailCommand,
  wcCommand,
  statCommand,
  findCommand,
  sortCommand,
  uniqCommand,
  cutCommand,
  sedCommand,
  awkCommand,
  jqCommand,
  xargsCommand,
  whichCommand,
  pasteCommand,
  trCommand,
  seqCommand,
  realpathCommand,
  duCommand,
  diffCommand,
  odCommand,
  xxdCommand,
  foldCommand,
  tacCommand,
  ...FILE_ERROR_COMMANDS,
  ...READ_ONLY_COMMANDS,
];
