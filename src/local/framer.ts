import { claimedLength, crcHolds, FRAME_MAGIC, HEADER_LENGTH, hasMagicAt } from "./frame.js";

/** What the framer cut from the stream: a whole frame (CRC checked) or bytes it had to skip. */
export type FramerEvent =
  | { readonly type: "frame"; readonly bytes: Uint8Array; readonly crcOk: boolean }
  /** A frame cut short by the next frame's header; its CRC cannot hold. */
  | { readonly type: "truncated"; readonly bytes: Uint8Array }
  | { readonly type: "stray"; readonly count: number };

/**
 * Finds frames in a byte stream as it arrives in pieces. It survives byte slips and stray bytes
 * (it skips to the next header and reports how many it skipped), waits for partial frames, and
 * when a frame's CRC fails while another header starts inside it, takes the frame as cut short
 * and starts again at that header. It never throws on what the wire brings.
 */
export class Framer {
  private buffer: Uint8Array = new Uint8Array(0);

  /** True when bytes of an unfinished frame are waiting for the rest. */
  get midFrame(): boolean {
    return this.buffer.length > 0;
  }

  push(chunk: Uint8Array): FramerEvent[] {
    this.buffer = concat(this.buffer, chunk);
    const events: FramerEvent[] = [];
    for (;;) {
      const start = findMagic(this.buffer, 0);
      if (start === -1) {
        // Keep a tail that may be the start of a header split across pieces.
        const keep = partialMagicTail(this.buffer);
        this.skip(this.buffer.length - keep, events);
        return events;
      }
      this.skip(start, events);
      if (this.buffer.length < HEADER_LENGTH) return events;
      const length = claimedLength(this.buffer);
      if (length === undefined) {
        this.skip(1, events);
        continue;
      }
      if (this.buffer.length < length) {
        // A frame cut short, followed by a whole one (a heartbeat that must not wait for bytes
        // that will never come): give up on the short one.
        const next = findMagic(this.buffer, FRAME_MAGIC.length);
        if (next === -1 || !wholeFrameAt(this.buffer, next)) return events;
        events.push({ type: "truncated", bytes: this.buffer.slice(0, next) });
        this.buffer = this.buffer.subarray(next);
        continue;
      }
      const bytes = this.buffer.slice(0, length);
      if (crcHolds(bytes)) {
        events.push({ type: "frame", bytes, crcOk: true });
        this.buffer = this.buffer.subarray(length);
        continue;
      }
      const next = findMagic(bytes, FRAME_MAGIC.length);
      if (next !== -1) {
        events.push({ type: "truncated", bytes: bytes.slice(0, next) });
        this.buffer = this.buffer.subarray(next);
        continue;
      }
      events.push({ type: "frame", bytes, crcOk: false });
      this.buffer = this.buffer.subarray(length);
    }
  }

  /** Ends the stream (a reconnect, the end of a file): what is left is an unfinished frame's bytes. */
  end(): FramerEvent[] {
    const left = this.buffer.length;
    this.buffer = new Uint8Array(0);
    return left > 0 ? [{ type: "stray", count: left }] : [];
  }

  private skip(count: number, events: FramerEvent[]): void {
    if (count <= 0) return;
    events.push({ type: "stray", count });
    this.buffer = this.buffer.subarray(count);
  }
}

function findMagic(bytes: Uint8Array, from: number): number {
  for (let index = from; index + FRAME_MAGIC.length <= bytes.length; index++) {
    if (hasMagicAt(bytes, index)) return index;
  }
  return -1;
}

function wholeFrameAt(bytes: Uint8Array, offset: number): boolean {
  const length = claimedLength(bytes, offset);
  return length !== undefined && bytes.length >= offset + length && crcHolds(bytes.subarray(offset, offset + length));
}

function partialMagicTail(bytes: Uint8Array): number {
  for (let keep = Math.min(FRAME_MAGIC.length - 1, bytes.length); keep > 0; keep--) {
    const tail = bytes.subarray(bytes.length - keep);
    if (tail.every((byte, index) => byte === FRAME_MAGIC[index])) return keep;
  }
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
