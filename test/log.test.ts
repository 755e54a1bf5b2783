import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { createLogger, type LogEvent, LogFeed, type LogFormat, resolveLogFormat } from "../src/log/log.js";

const SECRETS = {
  token: "t0ps3cret",
  cloud: { token: "c10ud" },
  mqtt: { password: "pa55" },
  headers: { authorization: "Bearer abc" },
};

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines, text: () => lines.join("") };
}

function logTo(format: LogFormat, tty: boolean, feed?: LogFeed) {
  const out = sink();
  const log = createLogger("info", { destination: out.stream, format, tty, ...(feed ? { feed } : {}) });
  return { out, log };
}

describe("logger", () => {
  it("never writes a token, password or authorization header as JSON", () => {
    const { out, log } = logTo("json", false);
    log.info(SECRETS, "start");
    const text = out.text();
    for (const secret of ["t0ps3cret", "c10ud", "pa55", "Bearer abc"]) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
    expect(JSON.parse(out.lines[0] ?? "{}").msg).toBe("start");
  });

  it("never writes a token in the pretty format either", () => {
    for (const tty of [false, true]) {
      const { out, log } = logTo("pretty", tty);
      log.info(SECRETS, "start");
      const text = out.text();
      for (const secret of ["t0ps3cret", "c10ud", "pa55", "Bearer abc"]) expect(text).not.toContain(secret);
      expect(text).toContain("[redacted]");
    }
  });

  it("writes one readable line per event: local time, level name, message, then its own fields", () => {
    // A pinned instant: the line shows it in the machine's own zone, whatever that zone is.
    const at = new Date(Date.parse("2026-11-16T02:03:04.005Z"));
    vi.useFakeTimers({ now: at, toFake: ["Date"] });
    const { out, log } = logTo("pretty", false);
    log.info({ device: "sd2024g001", devices: ["a", "b"], reason: "polls fail" }, "device unavailable");
    log.warn({ err: new Error("socket hang up") }, "poll failed");
    log.info("no fields");
    expect(out.lines).toHaveLength(3);
    const [first, second, third] = out.lines;
    expect(first).toMatch(
      /^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}device unavailable {2}device=sd2024g001 devices=a,b reason="polls fail"\n$/,
    );
    expect(second).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} WARN {2}poll failed {2}err="socket hang up"\n$/);
    expect(third).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}no fields\n$/);
    // pino's own keys are not repeated on every line.
    expect(out.text()).not.toMatch(/name=|pid=|hostname=|level=|time=/);
    vi.useRealTimers();
    const two = (n: number): string => String(n).padStart(2, "0");
    expect(first?.slice(0, 12)).toBe(`${two(at.getHours())}:${two(at.getMinutes())}:04.005`);
  });

  it("colours the level only on a terminal", () => {
    const plain = logTo("pretty", false);
    plain.log.error("broken");
    expect(plain.out.text()).not.toContain("\x1b[");
    const coloured = logTo("pretty", true);
    coloured.log.error("broken");
    expect(coloured.out.text()).toContain("\x1b[31mERROR");
  });

  it("with format auto, is readable on a terminal and JSON elsewhere", () => {
    expect(resolveLogFormat("auto", true)).toBe("pretty");
    expect(resolveLogFormat("auto", false)).toBe("json");
    expect(resolveLogFormat("json", true)).toBe("json");
    const file = logTo("auto", false);
    file.log.info({ n: 1 }, "hello");
    expect(JSON.parse(file.out.text())).toMatchObject({ msg: "hello", n: 1, level: 30 });
    const terminal = logTo("auto", true);
    terminal.log.info({ n: 1 }, "hello");
    expect(terminal.out.text()).toMatch(/INFO .*hello {2}.*n=1/);
  });

  it("hands warnings and errors to the feed, with their fields and without secrets", () => {
    const feed = new LogFeed();
    const events: LogEvent[] = [];
    feed.subscribe((event) => events.push(event));
    const { out, log } = logTo("json", false, feed);
    log.info("fine");
    log.warn({ device: "x", token: "t0ps3cret" }, "poll failed");
    log.error({ err: new Error("disk full") }, "store failing");
    expect(events.map((e) => [e.level, e.message])).toEqual([
      ["warn", "poll failed  device=x token=[redacted]"],
      ["error", 'store failing  err="disk full"'],
    ]);
    // The main output still has every event.
    expect(out.lines).toHaveLength(3);
  });

  it("drops an event a listener raises while it handles one, instead of looping", () => {
    const feed = new LogFeed();
    const { log } = logTo("json", false, feed);
    let calls = 0;
    feed.subscribe(() => {
      calls++;
      log.warn("publishing the warning failed");
    });
    log.warn("first");
    expect(calls).toBe(1);
  });
});
