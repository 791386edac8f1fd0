import { crc32, deflateSync } from "node:zlib";

/** Where browsers ask for a site's icon when a page names none. */
export const FAVICON_PATH = "/favicon.ico";

/** Side of the icon in pixels: what browsers show in a tab (16) at twice the density. */
const SIZE = 32;
const BLUE = [0x1f, 0x5f, 0xd6, 0xff] as const;
const WHITE = [0xff, 0xff, 0xff, 0xff] as const;
const CLEAR = [0, 0, 0, 0] as const;

/**
 * The icon every page view asks for (`/favicon.ico`, which browsers request on their own): a
 * page on a blue rounded square, drawn here rather than kept as a binary file. Browsers read an
 * ICO holding a PNG (every browser since 2010); served once a day at most per browser
 * (`Cache-Control`), where a 404 was answered on every page view.
 */
export function faviconResponse(): Response {
  // Drawn per request (a few microseconds): browsers cache it, and nothing is kept between calls.
  return new Response(Uint8Array.from(ico(png(draw()))), { headers: { "Content-Type": "image/x-icon", "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" } });
}

/** The pixels, RGBA rows top to bottom. */
function draw(): Uint8Array {
  const pixels = new Uint8Array(SIZE * SIZE * 4);
  const inside = (x: number, y: number): boolean => {
    // A square with corners rounded at radius 6.
    const r = 6;
    const cx = Math.min(Math.max(x, r), SIZE - 1 - r);
    const cy = Math.min(Math.max(y, r), SIZE - 1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  // A page with three lines of text.
  const page = (x: number, y: number): boolean => x >= 9 && x <= 22 && y >= 6 && y <= 25;
  const line = (x: number, y: number): boolean => x >= 12 && x <= 19 && (y === 11 || y === 15 || (y === 19 && x <= 17));
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const color = !inside(x, y) ? CLEAR : page(x, y) && !line(x, y) ? WHITE : BLUE;
      pixels.set(color, (y * SIZE + x) * 4);
    }
  }
  return pixels;
}

/** A PNG of `SIZE`x`SIZE` RGBA pixels. */
function png(pixels: Uint8Array): Buffer {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    // Each row starts with its filter type, 0 (none).
    rows.set(pixels.subarray(y * SIZE * 4, (y + 1) * SIZE * 4), y * (SIZE * 4 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter set, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An ICO file holding one PNG image. */
function ico(image: Buffer): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // an icon
  head.writeUInt16LE(1, 4); // one image
  head.set([SIZE, SIZE, 0, 0], 6); // width, height, no palette, reserved
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18); // the image follows this header
  return Buffer.concat([head, image]);
}
