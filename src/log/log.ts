import { type DestinationStream, type Logger, pino } from "pino";
import { type LogRecord, messageWithFields, parseLogLine, prettyLine } from "./format.js";

export type { Logger };

/** Paths pino blanks out wherever they appear in a log object: tokens, passwords, keys. */
export const REDACTED_PATHS = [
  "token",
  "password",
  "authorization",
  "apiKey",
  "*.token",
  "*.password",
  "*.authorization",
  "*.apiKey",
  "headers.authorization",
  "*.headers.authorization",
  "cloud.token",
  "mqtt.password",
];

/** `auto`: readable on a terminal, JSON lines otherwise (files, log collectors, `docker logs`). */
export type LogFormat = "json" | "pretty" | "auto";

/** A warning or error, as `<base>/bridge/logging` publishes it. */
export interface LogEvent {
  readonly level: "warn" | "error" | "fatal";
  readonly message: string;
  readonly time: number;
}

/**
 * Warnings and errors, handed to whoever listens (the MQTT bridge). An event raised while the
 * listeners handle one is dropped: a listener whose own failure logs a warning must not loop.
 */
export class LogFeed {
  private readonly listeners = new Set<(event: LogEvent) => void>();
  private delivering = false;
  /** The last warning or error, listened to or not: one said before the bridge was up still shows there. */
  last: LogEvent | undefined;

  subscribe(listener: (event: LogEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  push(event: LogEvent): void {
    this.last = event;
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (const listener of this.listeners) listener(event);
    } finally {
      this.delivering = false;
    }
  }
}

export interface LoggerOptions {
  /** stderr by default, so that commands like `api` keep stdout for their output. */
  readonly destination?: DestinationStream;
  readonly format?: LogFormat;
  /** Whether the destination is a terminal (decides `auto`, and colour); stderr's by default. */
  readonly tty?: boolean;
  /** Receives every warning and error. */
  readonly feed?: LogFeed;
}

/** `auto` decided: pretty on a terminal, JSON otherwise. */
export function resolveLogFormat(format: LogFormat, tty: boolean): "json" | "pretty" {
  return format === "auto" ? (tty ? "pretty" : "json") : format;
}

export function createLogger(level = "info", options: LoggerOptions = {}): Logger {
  const tty = options.tty ?? (options.destination === undefined && process.stderr.isTTY === true);
  const destination = options.destination ?? pino.destination({ fd: 2, sync: true });
  const format = resolveLogFormat(options.format ?? "auto", tty);
  const colour = tty && format === "pretty" && !process.env.NO_COLOR;
  const main: DestinationStream = format === "pretty" ? prettyStream(destination, colour) : destination;
  const stream = options.feed
    ? pino.multistream([
        { level: "trace", stream: main },
        { level: "warn", stream: feedStream(options.feed) },
      ])
    : main;
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      base: { name: "energy2mqtt" },
    },
    stream,
  );
}

/** Rewrites each JSON line readably; a line it cannot read passes as it is. */
function prettyStream(out: DestinationStream, colour: boolean): DestinationStream {
  return {
    write(line: string) {
      const record = parseLogLine(line);
      out.write(record ? prettyLine(record, colour) : line);
    },
  };
}

function feedStream(feed: LogFeed): DestinationStream {
  return {
    write(line: string) {
      const record: LogRecord | undefined = parseLogLine(line);
      if (!record || (record.level !== "warn" && record.level !== "error" && record.level !== "fatal")) return;
      feed.push({ level: record.level, message: messageWithFields(record), time: record.time });
    },
  };
}
