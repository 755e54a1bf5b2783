import type { LiveSnapshot } from "../api-types.js";

export type StreamName = "live" | "change" | "rule" | "rules";

export interface Stream {
  /** Listens to one kind of message; the latest is replayed at once. Returns the unsubscribe. */
  on(name: StreamName, listener: (data: unknown) => void): () => void;
  last(): LiveSnapshot | undefined;
}

/** Renders into `main`; returns what to undo when another page is shown. */
export type Page = (main: HTMLElement, stream: Stream) => () => void;
