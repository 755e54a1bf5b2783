// Draws the add-on's icon.png (128x128) and logo.png (250x100): a sun over a battery with a
// lightning bolt, and the name beside it in a small built-in pixel font. PNG written with node's
// zlib, no image library. Run with `npx tsx scripts/addon-images.ts`; the PNGs are committed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

type Rgba = readonly [number, number, number, number];
type Shape = (x: number, y: number) => boolean;

const BACKGROUND: Rgba = [18, 56, 74, 255];
const SUN: Rgba = [255, 196, 0, 255];
const BODY: Rgba = [235, 244, 247, 255];
const BOLT: Rgba = [46, 204, 113, 255];
const TEXT: Rgba = [18, 56, 74, 255];
const SAMPLES = 4;

class Canvas {
  readonly pixels: Float64Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Float64Array(width * height * 4);
  }

  /** Paints `shape` (in pixel units, 0..width) with anti-aliased edges, by supersampling each pixel. */
  fill(shape: Shape, colour: Rgba): void {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        let hits = 0;
        for (let sy = 0; sy < SAMPLES; sy++)
          for (let sx = 0; sx < SAMPLES; sx++)
            if (shape(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES)) hits++;
        if (hits === 0) continue;
        const alpha = (hits / SAMPLES ** 2) * (colour[3] / 255);
        const i = (y * this.width + x) * 4;
        for (let c = 0; c < 3; c++)
          this.pixels[i + c] = (colour[c] as number) * alpha + (this.pixels[i + c] as number) * (1 - alpha);
        this.pixels[i + 3] = 255 * alpha + (this.pixels[i + 3] as number) * (1 - alpha);
      }
    }
  }

  png(): Buffer {
    const rows = Buffer.alloc((this.width * 4 + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      rows[y * (this.width * 4 + 1)] = 0; // filter: none
      for (let x = 0; x < this.width * 4; x++)
        rows[y * (this.width * 4 + 1) + 1 + x] = Math.round(this.pixels[y * this.width * 4 + x] as number);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(rows, { level: 9 })),
      chunk("IEND", Buffer.alloc(0)),
    ]);
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

const roundedRect =
  (left: number, top: number, right: number, bottom: number, r: number): Shape =>
  (x, y) => {
    if (x < left || x > right || y < top || y > bottom) return false;
    const dx = Math.max(left + r - x, 0, x - (right - r));
    const dy = Math.max(top + r - y, 0, y - (bottom - r));
    return dx * dx + dy * dy <= r * r;
  };

/** Even-odd point in polygon. */
const polygon =
  (points: readonly (readonly [number, number])[]): Shape =>
  (x, y) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i] as readonly [number, number];
      const [xj, yj] = points[j] as readonly [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };

/** The mark in a 128-unit square, placed at (ox, oy) and scaled by s. */
function drawMark(canvas: Canvas, ox: number, oy: number, s: number): void {
  const at =
    (shape: Shape): Shape =>
    (x, y) =>
      shape((x - ox) / s, (y - oy) / s);
  canvas.fill(at(roundedRect(0, 0, 128, 128, 26)), BACKGROUND);
  // The sun, with eight rays, behind the battery's top right corner.
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    const ray = polygon([
      [92 + Math.cos(a - 0.16) * 22, 36 + Math.sin(a - 0.16) * 22],
      [92 + Math.cos(a) * 33, 36 + Math.sin(a) * 33],
      [92 + Math.cos(a + 0.16) * 22, 36 + Math.sin(a + 0.16) * 22],
    ]);
    canvas.fill(at(ray), SUN);
  }
  canvas.fill(at(circle(92, 36, 17)), SUN);
  // The battery: body and terminal.
  canvas.fill(at(roundedRect(22, 46, 88, 110, 8)), BODY);
  canvas.fill(at(roundedRect(44, 38, 66, 48, 3)), BODY);
  // The bolt.
  canvas.fill(
    at(
      polygon([
        [60, 52],
        [38, 82],
        [53, 82],
        [46, 104],
        [72, 72],
        [57, 72],
        [66, 52],
      ]),
    ),
    BOLT,
  );
}

/** 5x7 glyphs for the name, one string of five bits per row. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  e: ["00000", "00000", "01110", "10001", "11111", "10000", "01110"],
  n: ["00000", "00000", "10110", "11001", "10001", "10001", "10001"],
  r: ["00000", "00000", "10110", "11001", "10000", "10000", "10000"],
  g: ["00000", "01111", "10001", "10001", "01111", "00001", "01110"],
  y: ["00000", "10001", "10001", "10001", "01111", "00001", "01110"],
  "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
  m: ["00000", "00000", "11010", "10101", "10101", "10101", "10101"],
  q: ["00000", "01111", "10001", "10001", "01111", "00001", "00001"],
  t: ["01000", "01000", "11110", "01000", "01000", "01001", "00110"],
};

function drawText(canvas: Canvas, text: string, left: number, top: number, size: number, colour: Rgba): void {
  let x0 = left;
  for (const letter of text) {
    const rows = GLYPHS[letter];
    if (!rows) throw new Error(`no glyph for "${letter}"`);
    rows.forEach((row, ry) => {
      [...row].forEach((bit, rx) => {
        if (bit === "1")
          canvas.fill(roundedRect(x0 + rx * size, top + ry * size, x0 + (rx + 1) * size, top + (ry + 1) * size, 0), colour);
      });
    });
    x0 += 6 * size;
  }
}

const icon = new Canvas(128, 128);
drawMark(icon, 0, 0, 1);
writeFileSync("addon/icon.png", icon.png());

const logo = new Canvas(250, 100);
drawMark(logo, 4, 14, 72 / 128);
// "energy" over "2mqtt", in the mark's blue and the bolt's green.
drawText(logo, "energy", 86, 22, 4.5, TEXT);
drawText(logo, "2mqtt", 86, 56, 4.5, BOLT);
writeFileSync("addon/logo.png", logo.png());
console.log("addon/icon.png (128x128) and addon/logo.png (250x100) written");
