import { readSync } from "node:fs";

/** What `readStated` found: the file is larger than its stat said. */
export const GREW = -1;

/**
 * Read an open regular file whose stat gave `size` bytes into `room` (at least `size + 1` bytes
 * long): how many bytes it holds now (fewer when it shrank since the stat, as `readFileSync` would
 * read it), or `GREW` when it holds more (the caller leaves it to a reader that stats it again).
 *
 * One byte past the stat's size is asked for in the same read: a regular file's read returns what
 * is there up to the count, so `size` bytes back is the whole file, and `size + 1` one that grew,
 * without a second read to find the end (issue 22: one system call fewer a file, 50,000 at 50,000
 * pages, each ~15 µs on a virtual machine, on the thread the first load waits for).
 */
export function readStated(fd: number, size: number, room: Uint8Array): number {
  if (room.length < size + 1) throw new RangeError(`room for ${room.length} bytes; a ${size}-byte file needs ${size + 1}`);
  let got = 0;
  for (;;) {
    const n = readSync(fd, room, got, size + 1 - got, null);
    got += n;
    if (n === 0 || got >= size) break;
  }
  return got > size ? GREW : got;
}
