import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/log.js";
import type { TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startOcppHouse } from "../helpers/ocpp-house.js";

/*
 * Issue 37's failover: the charger's charge point drops its link to the daemon's central system
 * for 10 simulated minutes; the charger goes to the cloud meanwhile (bridge/health says so) and
 * comes back to OCPP once it has answered again for auto.failback; the charger's state is never
 * published twice in a row with the same content.
 */

const CHARGE_POINT = "EVC-FAILOVER";
const PASSWORD = "failover-pass";
type Json = Record<string, unknown>;

describe("the EV charger's OCPP link going away and coming back", () => {
  let house: Awaited<ReturnType<typeof startOcppHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-failover-"));
  const base = `e2mocppf${process.pid}`;
  const prefix = `haocppf${process.pid}`;
  /** The daemon's log lines (warnings and worse), as JSON. */
  const lines: Json[] = [];
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startOcppHouse>>["sim"];
  let uuid = "";
  let serial = "";

  beforeAll(async () => {
    const logger = createLogger("warn", {
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Json) },
    });
    house = await startOcppHouse({
      chargePoint: CHARGE_POINT,
      password: PASSWORD,
      base,
      prefix,
      dir,
      logger,
      config: { auto: { failback: "10s" }, poll: { inventory: "1h", ev_charger: "10s", local: "2s" } },
    });
    ({ broker, sim, uuid, serial } = house);
  }, 60_000);

  afterAll(async () => {
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("goes to the cloud while OCPP is away and back to OCPP when it reconnects, publishing nothing twice", async () => {
    const id = uuid.toLowerCase();
    const watcher = await observe(broker.url, [`${base}/#`]);
    /** Waits for the daemon to say the charger's live data moved to `path` (its path choice's own log line). */
    const pathNow = async (path: "cloud" | "local") => {
      const deadline = Date.now() + 45_000;
      const moved = () => lines.some((line) => line.device === serial && line.to === path && line.seen !== true);
      while (!moved() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const line = lines.find((one) => one.device === serial && one.to === path && one.seen !== true);
      if (!line) throw new Error(`the charger never moved to ${path}: ${JSON.stringify(lines.slice(-5))}`);
      line.seen = true;
    };
    try {
      // Over OCPP from the start: the charge point is connected.
      await watcher.waitFor((m) => m.topic === `${base}/${id}`, 30_000);
      await sim.admin(`/ocpp/${CHARGE_POINT}`, { connected: false });
      await pathNow("cloud");
      // Ten simulated minutes away: the cloud carries the charger meanwhile.
      await sim.admin("/clock", { advance_ms: 10 * 60_000 });
      const meanwhile = Date.now();
      await watcher.waitFor((m) => m.topic === `${base}/${id}` && m.at >= meanwhile, 30_000).catch(() => undefined);
      const back = Date.now();
      await sim.admin(`/ocpp/${CHARGE_POINT}`, { connected: true });
      await pathNow("local");
      // The move is logged before the charger's next state is published: wait for that state.
      const isLocal = (payload: string) => (JSON.parse(payload) as Json).path === "local";
      await watcher
        .waitFor((m) => m.topic === `${base}/${id}` && isLocal(m.payload), 30_000, back)
        .catch(() => undefined);
    } finally {
      await watcher.close();
    }
    // The charger's Path entity says where it is, as an inverter's does.
    const last = watcher.messages.filter((m) => m.topic === `${base}/${id}`).at(-1);
    expect(JSON.parse(last?.payload ?? "{}")).toMatchObject({ path: "local" });
    const states = watcher.messages.filter((m) => m.topic === `${base}/${id}`).map((m) => m.payload);
    expect(states.length).toBeGreaterThan(0);
    const repeats = states.filter((payload, index) => index > 0 && payload === states[index - 1]);
    expect(repeats).toEqual([]);
  }, 150_000);
});
