import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolverLookup } from "../../src/bridge/auth/resolver-lookup.js";

/**
 * A client metadata document's host is anyone's to name, and `dns.lookup` holds one of Node's
 * four I/O threads (shared with file reads, scrypt, zlib) until the name's servers answer: a few
 * names whose servers never answer would hold them all (the class of adversary round 66 F1).
 * Documents' names are asked of the DNS servers directly (`resolverLookup`). Here a real DNS
 * server on loopback UDP holds every query until the test answers: while sixteen queries of
 * eight names wait, eight file reads complete; then the names resolve.
 */

interface Query {
  readonly id: number;
  readonly name: string;
  readonly type: number;
  readonly question: Buffer;
  readonly from: RemoteInfo;
}

/** The name and type of a DNS query (RFC 1035 4.1), and its question section to echo. */
function parseQuery(message: Buffer, from: RemoteInfo): Query {
  const labels: string[] = [];
  let at = 12;
  for (let length = message[at] ?? 0; length > 0; length = message[at] ?? 0) {
    labels.push(message.subarray(at + 1, at + 1 + length).toString("ascii"));
    at += 1 + length;
  }
  const end = at + 5;
  return { id: message.readUInt16BE(0), name: labels.join("."), type: message.readUInt16BE(at + 1), question: message.subarray(12, end), from };
}

/** The answer to a query: an A record of `address` for type A, no records (NOERROR) for any other. */
function answer(query: Query, address: string): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.id, 0);
  header.writeUInt16BE(0x8180, 2);
  header.writeUInt16BE(1, 4);
  const records = query.type === 1 ? 1 : 0;
  header.writeUInt16BE(records, 6);
  if (records === 0) return Buffer.concat([header, query.question]);
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(1, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  address.split(".").forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
  return Buffer.concat([header, query.question, record]);
}

describe("client metadata documents' DNS", () => {
  let server: Socket;
  let servers: string[];
  const held: Query[] = [];
  const waiters: { readonly ready: () => boolean; readonly resolve: () => void }[] = [];
  const until = (ready: () => boolean): Promise<void> => (ready() ? Promise.resolve() : new Promise((resolve) => waiters.push({ ready, resolve })));
  beforeAll(async () => {
    server = createSocket("udp4");
    server.on("message", (message, from) => {
      held.push(parseQuery(message, from));
      for (const w of [...waiters]) {
        if (!w.ready()) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
    await new Promise<void>((resolve) => server.bind(0, "127.0.0.1", resolve));
    servers = [`127.0.0.1:${server.address().port}`];
  });
  afterAll(() => {
    server.close();
  });
  const release = (address: string): void => {
    for (const q of held.splice(0)) server.send(answer(q, address), q.from.port, q.from.address);
  };

  it("asks the DNS servers directly: file reads go on while eight names wait for their answers, then each name resolves", async () => {
    const lookup = resolverLookup(60_000, servers);
    const names = Array.from({ length: 8 }, (_, i) => `tool-${i}.slow.example`);
    const lookups = names.map((name) => lookup(name));
    await until(() => held.length === 16);
    expect(held.map((q) => `${q.name} ${q.type}`).sort()).toEqual(names.flatMap((name) => [`${name} 1`, `${name} 28`]).sort());
    // Eight reads on the I/O threads, none waiting behind the names.
    const reads = await Promise.all(Array.from({ length: 8 }, () => readFile(new URL(import.meta.url), "utf8")));
    expect(reads.every((text) => text.includes("client metadata documents' DNS"))).toBe(true);
    expect(held.length).toBe(16);
    release("93.184.216.34");
    expect(await Promise.all(lookups)).toEqual(names.map(() => [{ address: "93.184.216.34", family: 4 }]));
  });

  it("gives up on a name whose servers never answer, with the resolver's error", async () => {
    const lookup = resolverLookup(200, servers);
    const failed = await lookup("never.slow.example").then(
      () => "resolved",
      (error: NodeJS.ErrnoException & { hostname?: string }) => `${error.code} ${error.hostname}`,
    );
    expect(failed).toBe("ETIMEOUT never.slow.example");
    held.splice(0);
  });
});
