import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger, LogFeed } from "../../src/log/log.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { type FullDisk, mountSmallDisk } from "../helpers/full-disk.js";
import { type Observed, observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

const START = Date.parse("2025-01-14T16:00:00Z");
const SERIAL = "SD2024G001";
const INVERTER = SERIAL.toLowerCase();
const RESERVE = "battery_operating_range_reserve_percent";
const REFUSED = "not applied: the audit log cannot be written: disk full at";

/** A rule whose run now opens a window to be put back: the promise must be kept in the store first. */
const RULES = [
  "timezone: Europe/London",
  "tariffs:",
  "  import: { type: zones, price: 0.3, zones: [{ hours: '00:30-04:30', price: 0.09 }] }",
  "rules:",
  "  - name: night",
  "    when: { price: { below: 0.1 } }",
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 90 }] }',
].join("\n");

function smallDisk(): FullDisk {
  const disk = mountSmallDisk(4096);
  // A stand-in would not show what a real full disk does to SQLite: no mount, no test.
  if (!disk) throw new Error("this test needs a real tmpfs: run it as root (mount -t tmpfs must be allowed)");
  return disk;
}

/** Empties the journal, so that the next commit needs new room on the disk, not room the journal already has. */
function checkpoint(path: string): void {
  const db = new Database(path);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

function auditRows(path: string): { action: string; ok: number; message: string; at: number }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT action, ok, message, at FROM audit_log ORDER BY id").all() as {
      action: string;
      ok: number;
      message: string;
      at: number;
    }[];
  } finally {
    db.close();
  }
}

function openPromises(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare("SELECT count(*) AS open FROM rule_obligation WHERE status = 'open'").get() as {
      open: number;
    };
    return row.open;
  } finally {
    db.close();
  }
}

describe("no change without an audit: the daemon on a real full disk", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let observer: Awaited<ReturnType<typeof observe>>;
  let disk: FullDisk | undefined;
  let app: App | undefined;
  const base = `e2maud${process.pid}`;
  const prefix = `haaud${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: START, requestsPerMinute: 100_000 });
    observer = await observe(broker.url, [`${base}/#`]);
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    disk?.unmount();
    disk = undefined;
  });
  afterAll(async () => {
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
  });

  /** The first message from index `mark` on that matches. */
  async function next(mark: number, match: (m: Observed) => boolean): Promise<Observed> {
    for (let waited = 0; waited < 15_000; waited += 25) {
      const found = observer.messages.slice(mark).find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no matching MQTT message (saw ${observer.messages.length - mark} since the mark)`);
  }

  async function start(storePath: string, rules?: string): Promise<App> {
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      store: { path: storePath },
      ...(rules ? { rules } : {}),
      log: { level: "silent" },
    });
    const feed = new LogFeed();
    const logger = createLogger("warn", { destination: { write: () => undefined }, feed });
    app = await startApp(config, logger, "0.0.0-test", { feed, clock: sim.simulator.clock });
    return app;
  }

  async function setReserve(value: number): Promise<{ ok: boolean; message: string }> {
    const mark = observer.messages.length;
    await observer.publish(`${base}/${INVERTER}/set/${RESERVE}`, String(value));
    const result = await next(mark, (m) => m.topic === `${base}/${INVERTER}/result`);
    return JSON.parse(result.payload) as { ok: boolean; message: string };
  }

  const reserve = async (): Promise<unknown> => {
    const read = await sim.clientFor("owner").inverterControl.readSetting(SERIAL, 71);
    if (!read.ok) throw new Error(`setting 71 could not be read: ${read.reason}`);
    return read.value;
  };

  it("refuses every change while the store cannot be opened, warns on bridge/logging, and takes changes again once it can", async () => {
    disk = smallDisk();
    const storePath = join(disk.dir, "e2m.db");
    disk.fill();
    await start(storePath);
    const before = await reserve();
    const wanted = before === 30 ? 35 : 30;

    const mark = observer.messages.length;
    const refused = await setReserve(wanted);
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain(`${REFUSED} ${storePath}`);
    expect(refused.message).toContain("nothing was sent");
    expect(await reserve()).toBe(before);
    const warning = await next(
      mark,
      (m) => m.topic === `${base}/bridge/logging` && m.payload.includes("the audit log cannot be written"),
    );
    expect(JSON.parse(warning.payload)).toMatchObject({ level: "warn" });

    // Room again: the next change opens the store, writes its row, and is made.
    disk.free();
    const applied = await setReserve(wanted);
    expect(applied).toMatchObject({ ok: true });
    expect(await reserve()).toBe(wanted);
    const rows = auditRows(storePath);
    expect(rows).toEqual([
      expect.objectContaining({ action: "preset:battery-operating-range", ok: 1, message: applied.message }),
    ]);
  }, 60_000);

  it("refuses a change and a rule's run when a write fails on a full disk: no restore promise lost, nothing changed", async () => {
    disk = smallDisk();
    const storePath = join(disk.dir, "e2m.db");
    const rulesPath = join(disk.dir, "rules.yaml");
    writeFileSync(rulesPath, RULES);
    await start(storePath, rulesPath);
    const slotsBefore = (await sim.clientFor("owner").inverterControl.presetValues(SERIAL, "timed-charge")).slots;
    const reserveBefore = await reserve();
    const rowsBefore = auditRows(storePath).length;

    checkpoint(storePath);
    disk.fill();
    const set = await setReserve(reserveBefore === 30 ? 35 : 30);
    expect(set.ok).toBe(false);
    expect(set.message).toContain(`${REFUSED} ${storePath}`);
    expect(await reserve()).toBe(reserveBefore);

    let mark = observer.messages.length;
    await observer.publish(`${base}/rules/set/run_night`, "PRESS");
    const run = JSON.parse((await next(mark, (m) => m.topic === `${base}/rules/result`)).payload) as {
      ok: boolean;
      message: string;
    };
    expect(run.ok).toBe(false);
    // The rule keeps its own record of what it changes (per control): the store says the disk is full.
    expect(run.message).toContain("nothing sent: what the rule changes could not be saved for restoring");
    expect(run.message).toContain(`the disk holding ${storePath} is full`);
    expect((await sim.clientFor("owner").inverterControl.presetValues(SERIAL, "timed-charge")).slots).toEqual(
      slotsBefore,
    );

    // No promise to put back was recorded, since nothing was changed.
    expect(openPromises(storePath)).toBe(0);

    disk.free();
    mark = observer.messages.length;
    await observer.publish(`${base}/rules/set/run_night`, "PRESS");
    const again = JSON.parse((await next(mark, (m) => m.topic === `${base}/rules/result`)).payload) as {
      ok: boolean;
    };
    expect(again.ok).toBe(true);
    await app?.stop();
    app = undefined;
    // Nothing was recorded for what was refused; the run with room recorded its promise and its change.
    const rows = auditRows(storePath).slice(rowsBefore);
    expect(rows.map((row) => row.action)).toEqual(["preset:timed-charge"]);
    const store = openStore(storePath);
    try {
      const [promise] = store.ruleObligations.pending();
      expect(promise).toMatchObject({ rule: "night", restore: { snapshots: [] } });
      expect(promise?.restore.controls.length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 60_000);
});
