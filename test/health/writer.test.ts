import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type HealthWriter, healthFilePath, healthStatusSchema, startHealthWriter } from "../../src/health/index.js";
import { createLogger } from "../../src/log/log.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { capture } from "../helpers/capture.js";
import { mountSmallDisk } from "../helpers/full-disk.js";

const T0 = Date.parse("2026-01-10T12:00:00Z");

describe("the health writer", () => {
  let writer: HealthWriter | undefined;
  afterEach(() => writer?.stop());

  // Writes come from the calls under test: the hourly tick stays out of the way.
  const start = (clock: VirtualClock) => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-health-"));
    const file = join(dir, "nested", "health.json");
    writer = startHealthWriter({ file, logger: createLogger("silent"), clock, intervalMs: 3_600_000 });
    const read = () => healthStatusSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    return { dir, file, read, writer };
  };

  it("writes a status at once, creating the folder, with no temporary file left behind", () => {
    const { read, dir } = start(new VirtualClock(T0));
    expect(read()).toEqual({
      at: "2026-01-10T12:00:00.000Z",
      pid: process.pid,
      mqtt: { connected: false, since: "2026-01-10T12:00:00.000Z" },
      cloud: { last_success: null, refused: null },
      devices: [],
    });
    expect(readdirSync(join(dir, "nested"))).toEqual(["health.json"]);
  });

  it("writes the file and its folder readable by the owner only", () => {
    const { file, dir } = start(new VirtualClock(T0));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "nested")).mode & 0o777).toBe(0o700);
  });

  it("records the last 2xx cloud answer, ignoring failures", () => {
    const clock = new VirtualClock(T0);
    const { read, writer } = start(clock);
    clock.advanceTo(T0 + 5_000);
    writer.cloudRequest(200);
    clock.advanceTo(T0 + 9_000);
    writer.cloudRequest(503);
    writer.cloudRequest(undefined);
    writer.write();
    expect(read().cloud.last_success).toBe("2026-01-10T12:00:05.000Z");
    expect(read().at).toBe("2026-01-10T12:00:09.000Z");
  });

  it("records the cloud's refusal while there is one", () => {
    const { read, writer } = start(new VirtualClock(T0));
    let refusal: string | undefined = "The cloud refused: the token is wrong (401)";
    writer.watchRefusal(() => refusal);
    writer.write();
    expect(read().cloud.refused).toBe("The cloud refused: the token is wrong (401)");
    refusal = undefined;
    writer.write();
    expect(read().cloud.refused).toBeNull();
  });

  it("tracks since when MQTT has been connected or not", () => {
    const clock = new VirtualClock(T0);
    const { read, writer } = start(clock);
    let connected = true;
    clock.advanceTo(T0 + 1_000);
    writer.watchMqtt(() => connected);
    expect(read().mqtt).toEqual({ connected: true, since: "2026-01-10T12:00:01.000Z" });
    clock.advanceTo(T0 + 40_000);
    writer.write();
    expect(read().mqtt.since).toBe("2026-01-10T12:00:01.000Z");
    connected = false;
    clock.advanceTo(T0 + 70_000);
    writer.write();
    expect(read().mqtt).toEqual({ connected: false, since: "2026-01-10T12:01:10.000Z" });
  });

  it("on a full disk, warns once and leaves no temporary file behind", () => {
    const disk = mountSmallDisk(64);
    const dir = disk?.dir ?? mkdtempSync(join(tmpdir(), "e2m-health-full-"));
    const file = join(dir, "health.json");
    if (disk) {
      console.info("[full disk] a 64 KB tmpfs, filled");
      disk.fill();
    } else {
      // Without the right to mount, /dev/full answers every write with ENOSPC just the same.
      console.info("[full disk] mount is not allowed here: the temporary file is a link to /dev/full");
      symlinkSync("/dev/full", `${file}.${process.pid}.tmp`);
    }
    const logged = capture();
    const logger = pino({ level: "warn" }, logged.stream);
    try {
      writer = startHealthWriter({ file, logger, clock: new VirtualClock(T0) });
      writer.write();
      expect(readdirSync(dir).filter((name) => name.startsWith("health.json"))).toEqual([]);
      const warnings = logged
        .text()
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { msg: string; err: string });
      expect(warnings).toEqual([expect.objectContaining({ msg: "could not write the health file" })]);
      expect(warnings[0]?.err).toContain("ENOSPC");
    } finally {
      writer?.stop();
      writer = undefined;
      if (disk) disk.unmount();
      else rmSync(dir, { recursive: true, force: true });
    }
  });

  it("removes the file when stopped, so a stopped daemon does not look healthy", () => {
    const { file, writer } = start(new VirtualClock(T0));
    writer.stop();
    expect(existsSync(file)).toBe(false);
  });
});

describe("the health file's path", () => {
  it("is ENERGY2MQTT_HEALTH_FILE, else next to the store, else none for an in-memory store", () => {
    expect(healthFilePath("/data/e2m.db", { ENERGY2MQTT_HEALTH_FILE: "/run/h.json" })).toBe("/run/h.json");
    expect(healthFilePath("/data/e2m.db", {})).toBe("/data/health.json");
    expect(healthFilePath("data/energy2mqtt.db", {})).toBe("data/health.json");
    expect(healthFilePath(":memory:", {})).toBeUndefined();
  });
});
