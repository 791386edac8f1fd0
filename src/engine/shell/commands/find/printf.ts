import { OWNER } from "../../../../vfs/view.js";
import { baseName } from "../../lib/files.js";
import { inodeOf, modeString } from "../../lib/format.js";
import type { Ctx } from "./expression.js";

const UTC_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const UTC_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** find's `%t`: ctime(3) layout with the fractional seconds GNU find adds. */
function ctimeText(d: Date): string {
  const frac = `${pad(d.getUTCMilliseconds(), 3)}0000000`;
  return `${UTC_DAYS[d.getUTCDay()]} ${UTC_MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${frac} ${d.getUTCFullYear()}`;
}

function timeField(d: Date, k: string): string {
  switch (k) {
    case "Y":
      return String(d.getUTCFullYear());
    case "m":
      return pad(d.getUTCMonth() + 1);
    case "d":
      return pad(d.getUTCDate());
    case "H":
      return pad(d.getUTCHours());
    case "M":
      return pad(d.getUTCMinutes());
    case "S":
      return `${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    case "T":
      return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    case "F":
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    case "s":
      return String(Math.floor(d.getTime() / 1000));
    case "+":
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}+${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}0000000`;
    default:
      return `%T${k}`;
  }
}

export function printfText(format: string, c: Ctx): string {
  const dir = (p: string) => {
    const i = p.lastIndexOf("/");
    return i === -1 ? "." : i === 0 ? "/" : p.slice(0, i);
  };
  let out = "";
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch === "\\") {
      const e = format[++i];
      out += e === "n" ? "\n" : e === "t" ? "\t" : e === "0" ? "\0" : e === "\\" ? "\\" : `\\${e ?? ""}`;
      continue;
    }
    if (ch !== "%") {
      out += ch;
      continue;
    }
    let width = "";
    while (/[-\d]/.test(format[i + 1] ?? "")) width += format[++i];
    const d = format[++i];
    let v: string;
    switch (d) {
      case "p":
        v = c.display;
        break;
      case "P":
        v = c.display === c.start ? "" : c.display.slice(c.start.endsWith("/") ? c.start.length : c.start.length + 1);
        break;
      case "f":
        v = c.display === "/" ? "/" : baseName(c.display.replace(/\/+$/, "")) || c.display;
        break;
      case "h":
        v = dir(c.display);
        break;
      case "s":
        v = String(c.info.size);
        break;
      case "k":
        v = String(c.info.blocks / 2);
        break;
      case "b":
        v = String(c.info.blocks);
        break;
      case "d":
        v = String(c.depth);
        break;
      case "y":
        v = c.info.kind === "dir" ? "d" : "f";
        break;
      case "m":
        v = (c.info.mode & 0o7777).toString(8);
        break;
      case "M":
        v = modeString(c.info.mode);
        break;
      case "n":
        v = String(c.info.nlink);
        break;
      case "u":
        v = OWNER.user;
        break;
      case "g":
        v = OWNER.group;
        break;
      case "U":
        v = String(OWNER.uid);
        break;
      case "G":
        v = String(OWNER.gid);
        break;
      case "t":
      case "a":
      case "c":
        v = ctimeText(c.info.mtime);
        break;
      case "i":
        v = String(inodeOf(c.path));
        break;
      case "T":
      case "A":
      case "C":
        v = timeField(c.info.mtime, format[++i] ?? "");
        break;
      case "%":
        v = "%";
        break;
      default:
        v = `%${d ?? ""}`;
    }
    const w = Number(width.replace("-", "") || "0");
    out += width.startsWith("-") ? v.padEnd(w) : v.padStart(w);
  }
  return out;
}
