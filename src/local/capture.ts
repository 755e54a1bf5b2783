import { claimedLength, crcHolds, type Frame, FrameError, type FrameKind, parseFrame } from "./frame.js";
import { Framer, type FramerEvent } from "./framer.js";

export type Direction = "rx" | "tx";

/** One frame of a capture: which way it went, when (if the format says), and what it is. */
export interface CapturedFrame {
  readonly direction: Direction;
  /** The line's time as written (ISO), when the format has times. */
  readonly at?: string;
  readonly frame: Frame;
}

export type CountKind = FrameKind | "unreadable-line";

export interface Capture {
  readonly frames: readonly CapturedFrame[];
  /** Frames by kind (heartbeats both ways), CRC failures and cut-short frames as `crc-failure`. */
  readonly counts: Readonly<Record<CountKind, number>>;
  /** Bytes skipped between frames (slips, unfinished frames at a reconnect). */
  readonly strayBytes: number;
  /**
   * Lines that start a transparent frame but are not one whole frame whose CRC holds: reads cut
   * short or glued to the next frame. A reader that takes each line as one frame counts these as
   * CRC failures (the captures' README does); the framer joins and splits them instead.
   */
  readonly irregularLines: number;
  /** What was skipped and why, one line each (the unreadable lines). */
  readonly warnings: readonly string[];
}

// `<ISO time> rx|tx <hex>` (the capture tool) or `rx: <hex>` (an HA integration's).
const LINE = /^(?:(\S+)\s+)?(rx|tx):?\s+([0-9a-fA-F]*)\s*$/;

export function emptyCounts(): Record<CountKind, number> {
  return { heartbeat: 0, request: 0, response: 0, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 };
}

/**
 * Reads a capture file's text in either line format. Lines starting `#` mark reconnects (or are
 * comments): each direction's framer starts again there. A line that is not hex, or that neither
 * starts a frame nor continues an unfinished one (the stray `rx 00`), is skipped and counted.
 */
export function readCapture(text: string): Capture {
  const framers: Record<Direction, Framer> = { rx: new Framer(), tx: new Framer() };
  const frames: CapturedFrame[] = [];
  const counts = emptyCounts();
  const warnings: string[] = [];
  let strayBytes = 0;
  let irregularLines = 0;

  const take = (direction: Direction, at: string | undefined, events: readonly FramerEvent[]): void => {
    for (const event of events) {
      if (event.type === "stray") {
        strayBytes += event.count;
        continue;
      }
      if (event.type === "truncated") {
        counts["crc-failure"]++;
        continue;
      }
      try {
        const frame = parseFrame(event.bytes);
        counts[frame.kind]++;
        frames.push(at === undefined ? { direction, frame } : { direction, at, frame });
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        counts["crc-failure"]++;
      }
    }
  };

  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    if (line.startsWith("#")) {
      for (const direction of ["rx", "tx"] as const) take(direction, undefined, framers[direction].end());
      return;
    }
    const match = LINE.exec(line);
    const hex = match?.[3] ?? "";
    const direction = match?.[2] as Direction | undefined;
    const unreadable = (why: string): void => {
      counts["unreadable-line"]++;
      warnings.push(`line ${index + 1}: ${why}, skipped: ${line.slice(0, 60)}`);
    };
    if (direction === undefined) {
      unreadable("not `<time> rx|tx <hex>` nor `rx|tx: <hex>`");
      return;
    }
    if (hex.length === 0 || hex.length % 2 !== 0) {
      unreadable("no whole bytes of hex");
      return;
    }
    const bytes = Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
    if (startsWithMagic(bytes) && bytes[7] === 0x02 && !isOneWholeFrame(bytes)) irregularLines++;
    const framer = framers[direction];
    if (!framer.midFrame && !startsWithMagic(bytes)) {
      unreadable("neither starts a frame nor continues one");
      return;
    }
    take(direction, match?.[1], framer.push(bytes));
  });
  for (const direction of ["rx", "tx"] as const) take(direction, undefined, framers[direction].end());
  return { frames, counts, strayBytes, irregularLines, warnings };
}

function isOneWholeFrame(bytes: Uint8Array): boolean {
  if (claimedLength(bytes) !== bytes.length) return false;
  if (crcHolds(bytes)) return true;
  try {
    return parseFrame(bytes).kind === "broadcast";
  } catch {
    return false;
  }
}

function startsWithMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x59 && bytes[1] === 0x59;
}
