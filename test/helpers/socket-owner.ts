import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** A client's end of a TCP connection as node:net describes it once connected. */
export interface ClientEnd {
  readonly localAddress?: string | undefined;
  readonly localPort?: number | undefined;
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}

/**
 * Reads of the kernel's socket tables before a connection not listed in them is taken as gone.
 * The kernel writes /proc/net/tcp a page at a time, resuming each page at a count of entries
 * into a hash bucket: a connection of the same bucket closing between two reads shifts that
 * count, and the entry after it is left out of that listing. A connection that is open is listed
 * by the next read; one the server ended stays listed (FIN_WAIT, TIME_WAIT) for a minute.
 */
const TABLE_READS = 5;

/**
 * The pid among `pids` holding the server end of the connection whose client end is `client`
 * (read from /proc; Linux), else undefined: not accepted yet, held by another process (the
 * primary, handing it out), or closed by the server. The server end is found by the whole
 * connection, both addresses and both ports, and only while it has a socket file (an inode): a
 * match on the ports alone took a closed connection's TIME_WAIT line (inode 0) of another
 * server that had the port before, from another address with the same client port, and the
 * lookup answered undefined for a live connection (a third "owner" in a loaded run).
 */
export function socketOwner(client: ClientEnd, pids: readonly number[]): number | undefined {
  const { localAddress, localPort, remoteAddress, remotePort } = client;
  if (localAddress === undefined || localPort === undefined || remoteAddress === undefined || remotePort === undefined) return undefined;
  // The server's end: its local address is the client's remote one, and the other way round.
  const wanted = { local: `${canonical(remoteAddress)}:${remotePort}`, remote: `${canonical(localAddress)}:${localPort}` };
  for (let read = 0; read < TABLE_READS; read++) {
    const inode = serverEndInode(wanted);
    if (inode === "unlisted") continue;
    return inode === undefined ? undefined : holderOf(inode, pids);
  }
  return undefined;
}

/** The pid among `pids` with a file descriptor on socket `inode`. */
function holderOf(inode: string, pids: readonly number[]): number | undefined {
  const link = `socket:[${inode}]`;
  return pids.find((pid) => {
    const dir = `/proc/${pid}/fd`;
    let fds: string[];
    try {
      fds = readdirSync(dir);
    } catch {
      return false; // That process is gone.
    }
    return fds.some((fd) => {
      try {
        return readlinkSync(join(dir, fd)) === link;
      } catch {
        return false; // Closed meanwhile.
      }
    });
  });
}

/**
 * The inode of the socket whose local and remote ends are `wanted` ("address:port"), undefined
 * when its lines have none (not accepted yet, or closed: no process holds it; an earlier
 * connection's TIME_WAIT line with the same ends has none either), "unlisted" when no line of
 * this read is that connection's.
 */
function serverEndInode(wanted: { local: string; remote: string }): string | undefined | "unlisted" {
  let listed = false;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || tableEnd(f[1] as string) !== wanted.local || tableEnd(f[2] as string) !== wanted.remote) continue;
      if (f[9] !== "0") return f[9];
      listed = true;
    }
  }
  return listed ? undefined : "unlisted";
}

/** "address:port" of a /proc/net/tcp{,6} field: the address in hex, 32-bit words in host order (little-endian here). */
function tableEnd(field: string): string {
  const [hex, port] = field.split(":") as [string, string];
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) for (let b = 6; b >= 0; b -= 2) bytes.push(Number.parseInt(hex.slice(w + b, w + b + 2), 16));
  return `${addressOf(bytes)}:${Number.parseInt(port, 16)}`;
}

/** An address's text from its bytes: dotted for IPv4 (an IPv4-mapped IPv6 one too), else canonical IPv6. */
function addressOf(bytes: readonly number[]): string {
  const mapped = bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (bytes.length === 4 || mapped) return bytes.slice(-4).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] as number) << 8) | (bytes[i + 1] as number)).toString(16));
  return canonical(groups.join(":"));
}

/** An address as node:net gives it, in the form `tableEnd` gives: IPv4 dotted (IPv4-mapped too), IPv6 as a URL writes it. */
function canonical(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  return address.includes(":") ? new URL(`http://[${address}]/`).hostname : address;
}
