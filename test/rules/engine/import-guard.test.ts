import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleEvent } from "../../../src/rules/engine/index.js";
import { startTestBroker, type TestBroker } from "../../helpers/broker.js";
import { baseTopic, ManualClock, startBridge } from "../../homeassistant/rules-harness.js";
import { CHARGER, type Env, MINUTE, type Run, startEnv } from "./helpers.js";

// The evening of optimise-car.test.ts: the demo car comes home and the rule charges it in the
// night's cheapest half-hours, under a 10 kW import limit.
const START = Date.UTC(2025, 5, 15, 16, 0);
const DEADLINE = Date.UTC(2025, 5, 16, 6, 30);
const rules = (guard: readonly string[] = []) => [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
  "ev: { charge_kw: 7 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "  export: { type: fixed, price: 0.05 }",
  "rules:",
  "  - name: optimiser",
  "    when:",
  "      optimise:",
  "        reserve_soc: 10",
  "        import_limit_kw: 10",
  '        car: { kwh: 7, by: "07:30" }',
  ...guard.map((line) => `        ${line}`),
];
/** The current the car charges at before the window: not the charger's default, so a restore of it shows. */
const BEFORE_A = 30;

type WindowEvent = Extract<RuleEvent, { type: "window" }>;
type ActionEvent = Extract<RuleEvent, { type: "action" }>;

/** Starts the rules and runs the clock until a window charging the car has just opened and the car charges. */
async function untilCarCharges(env: Env): Promise<{ run: Run; window: WindowEvent }> {
  await env.checker.evChargers.sendCommand(CHARGER, "set-plug-and-go", { enabled: false });
  await env.checker.evChargers.sendCommand(CHARGER, "adjust-charge-power-limit", { limit: BEFORE_A });
  const run = await env.startRuntime({ firstRound: { soc: 20 } });
  const seeCharger = async () => run.pushCharger((await env.checker.evChargers.get(CHARGER)).status ?? "Available");
  await seeCharger();
  for (let at = START + 30 * MINUTE; at <= DEADLINE; at += 30 * MINUTE) {
    await run.advanceTo(at);
    await seeCharger();
    const window = run.events.filter((event): event is WindowEvent => event.type === "window").at(-1);
    if (window?.phase === "open" && window.window.start === at && window.message.includes("charge the car"))
      return { run, window };
  }
  throw new Error("no window charged the car before the deadline");
}

/** A reading of the inverter with the site importing `kw`. */
const importing = (run: Run, kw: number) => run.pushInverter({ grid: -kw * 1000 });

describe("the import guard: the car's current cut through the gate when the measured import goes over the limit", () => {
  let env: Env;
  let run: Run;
  let window: WindowEvent;
  let broker: TestBroker;
  let harness: Awaited<ReturnType<typeof startBridge>>;
  const base = baseTopic();
  /** The guard's attributes of the rule's switch in the rules' state the bridge publishes next from `mark` on. */
  const publishedGuard = async (mark: number, message: string | null) => {
    const seen = await harness.seen(mark, (m) => {
      if (m.topic !== `${base}/rules`) return false;
      const state = JSON.parse(m.payload) as { rules: Record<string, Record<string, unknown>> };
      return state.rules.optimiser?.import_guard === message;
    });
    return (JSON.parse(seen.payload) as { rules: Record<string, Record<string, unknown>> }).rules.optimiser;
  };
  const limit = async () => (await env.checker.evChargers.commandData(CHARGER, "adjust-charge-power-limit")).value;
  const status = async () => (await env.checker.evChargers.get(CHARGER)).status;
  const guardEvents = () =>
    run.events.filter(
      (event): event is ActionEvent => event.type === "action" && event.action.startsWith("import guard"),
    );

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: rules() });
    ({ run, window } = await untilCarCharges(env));
    broker = await startTestBroker();
    harness = await startBridge(broker, base);
    await harness.bridge.attachRules(run.runtime, { clock: new ManualClock(env.now()) });
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
    await run?.runtime.stop();
    await env?.stop();
    await broker?.stop();
  });

  it("leaves the car alone for one reading over the limit, and for readings over it that are not in a row", async () => {
    expect(await status()).toBe("Charging");
    await importing(run, 11.2);
    await importing(run, 9.5);
    await importing(run, 11.2);
    expect(await limit()).toBe(BEFORE_A);
    expect(await status()).toBe("Charging");
    expect(guardEvents()).toEqual([]);
    expect(run.runtime.list().find((rule) => rule.name === "optimiser")?.importGuard).toBeUndefined();
  });

  it("on a second reading in a row lowers the current by the excess at 230 V, as the rule, audited, and says so", async () => {
    const mark = harness.observer.messages.length;
    await importing(run, 11.2);
    // 1.2 kW over: 1200 / 230 = 5.2 A off 30 A, rounded down.
    expect(await limit()).toBe(24);
    const message = "import 11.2 kW over the 10 kW limit: car current 30 A → 24 A";
    expect(guardEvents().map((event) => [event.status, event.message])).toEqual([["applied", message]]);
    expect(env.logs.some((line) => line.includes('"level":30') && line.includes(`rule optimiser: ${message}`))).toBe(
      true,
    );
    const audit = run.store.audit.recent({ limit: 50 }).find((row) => row.action.includes("adjust-charge-power-limit"));
    expect(audit).toMatchObject({ source: "rule", requesterName: "optimiser", ok: true });
    const listed = run.runtime.list().find((rule) => rule.name === "optimiser");
    expect(listed?.importGuard).toEqual({ since: env.now(), message });
    // On MQTT: the attributes of the rule's switch, from the rules' retained state.
    expect(await publishedGuard(mark, message)).toMatchObject({
      import_guard_since: new Date(env.now()).toISOString(),
    });
  });

  it("gives the current back only once the import has stayed a kilowatt under the limit for five minutes", async () => {
    // Under the limit, but not by the hysteresis: the clock of the hold does not start.
    await importing(run, 9.5);
    const mark = harness.observer.messages.length;
    const from = env.now() + MINUTE;
    await run.advanceTo(from);
    await importing(run, 8);
    await run.advanceTo(from + 4 * MINUTE);
    await importing(run, 8.5);
    expect(await limit()).toBe(24);
    await run.advanceTo(from + 5 * MINUTE);
    await importing(run, 8.5);
    expect(await limit()).toBe(BEFORE_A);
    expect(guardEvents().at(-1)?.message).toBe("import 8.5 kW, under 9 kW for 5 minutes: car current 24 A → 30 A");
    expect(run.runtime.list().find((rule) => rule.name === "optimiser")?.importGuard).toBeUndefined();
    expect(await publishedGuard(mark, null)).toMatchObject({ import_guard_since: null });
  });

  it("stops the charging when even 6 A would leave the import over the limit, and starts it again after the hold", async () => {
    await importing(run, 16);
    await importing(run, 16);
    expect(await status()).not.toBe("Charging");
    expect(await limit()).toBe(BEFORE_A);
    const stopped = guardEvents().at(-1);
    expect(stopped?.message).toBe(
      "import 16.0 kW over the 10 kW limit: car charging stopped (6 A would still be over it)",
    );
    expect(stopped?.action).toBe("import guard: stop-charge");
    // Still over while stopped: nothing more to cut.
    const sent = guardEvents().length;
    await importing(run, 12);
    await importing(run, 12);
    expect(guardEvents()).toHaveLength(sent);
    const from = env.now();
    await importing(run, 3);
    await run.advanceTo(from + 5 * MINUTE);
    await importing(run, 3);
    expect(await status()).toBe("Charging");
    expect(guardEvents().at(-1)?.message).toBe("import 3.0 kW, under 9 kW for 5 minutes: car charging started again");
    const rows = run.store.audit.recent({ limit: 50 });
    for (const command of ["stop-charge", "start-charge"])
      expect(
        rows.some(
          (row) => row.action.includes(command) && row.requesterName === "optimiser" && row.at >= from - MINUTE,
        ),
      ).toBe(true);
  });

  it("at the window's end puts back the current from before the window, not the guard's", async () => {
    await importing(run, 10.5);
    await importing(run, 10.5);
    // 0.5 kW over: 2.2 A off 30 A.
    expect(await limit()).toBe(27);
    expect(env.now()).toBeLessThan(window.window.end);
    await run.advanceTo(window.window.end);
    const restore = run.events.filter((event) => event.type === "restore").at(-1);
    expect(restore).toMatchObject({ ok: true, at: window.window.end });
    expect(restore?.message).toContain(`charger ${CHARGER} adjust-charge-power-limit restored`);
    expect(await limit()).toBe(BEFORE_A);
    // The guard's watch ended with the window: the next over-limit readings are not the closed window's.
    const closed = run.events.some(
      (event) => event.type === "window" && event.phase === "close" && event.window.start === window.window.start,
    );
    expect(closed).toBe(true);
    expect(run.runtime.list().find((rule) => rule.name === "optimiser")?.importGuard).toBeUndefined();
  });
});

describe("the import guard turned off", () => {
  let env: Env;
  let run: Run;

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: rules(["import_guard: false"]) });
    ({ run } = await untilCarCharges(env));
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  it("leaves the car charging at its current whatever the import", async () => {
    for (let reading = 0; reading < 4; reading++) await importing(run, 16);
    expect((await env.checker.evChargers.commandData(CHARGER, "adjust-charge-power-limit")).value).toBe(BEFORE_A);
    expect((await env.checker.evChargers.get(CHARGER)).status).toBe("Charging");
    expect(run.events.some((event) => event.type === "action" && event.action.startsWith("import guard"))).toBe(false);
  });
});

describe("the import guard on a charger that cannot lower its current", () => {
  let env: Env;
  let run: Run;

  beforeAll(async () => {
    env = await startEnv({
      start: START,
      rules: rules(),
      chargerCommands: (listed) => listed.filter((command) => command !== "adjust-charge-power-limit"),
    });
    ({ run } = await untilCarCharges(env));
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  it("stops the charging on the second reading over the limit, however small the excess", async () => {
    await importing(run, 10.3);
    expect((await env.checker.evChargers.get(CHARGER)).status).toBe("Charging");
    await importing(run, 10.3);
    expect((await env.checker.evChargers.get(CHARGER)).status).not.toBe("Charging");
    expect((await env.checker.evChargers.commandData(CHARGER, "adjust-charge-power-limit")).value).toBe(BEFORE_A);
    const cut = run.events.filter((event) => event.type === "action" && event.action.startsWith("import guard"));
    expect(cut.map((event) => event.message)).toEqual([
      "import 10.3 kW over the 10 kW limit: car charging stopped (the charger cannot lower its current)",
    ]);
  });
});

describe("the import guard across a restart in the middle of the car's window", () => {
  let env: Env;
  let first: Run;
  let run: Run;
  let window: WindowEvent;
  const limit = async () => (await env.checker.evChargers.commandData(CHARGER, "adjust-charge-power-limit")).value;

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: rules() });
    ({ run: first, window } = await untilCarCharges(env));
    await importing(first, 11.2);
    await importing(first, 11.2);
    await first.runtime.stop();
    run = await env.startRuntime({ firstRound: { soc: 20 } });
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  it("resumes the watch from the window's promise: it says so, cuts again, and gives back the current from before", async () => {
    expect(await limit()).toBe(24);
    expect(run.runtime.list().find((rule) => rule.name === "optimiser")?.importGuard?.message).toBe(
      "car current held at 24 A by the import guard before a restart",
    );
    await importing(run, 11.2);
    await importing(run, 11.2);
    // 1.2 kW over again, from the 24 A the charger holds: 18.8 A, rounded down.
    expect(await limit()).toBe(18);
    const from = env.now();
    await importing(run, 7);
    await run.advanceTo(from + 5 * MINUTE);
    await importing(run, 7);
    expect(await limit()).toBe(BEFORE_A);
    const events = run.events.filter((event) => event.type === "action" && event.action.startsWith("import guard"));
    expect(events.map((event) => event.message)).toEqual([
      "import 11.2 kW over the 10 kW limit: car current 24 A → 18 A",
      "import 7.0 kW, under 9 kW for 5 minutes: car current 18 A → 30 A",
    ]);
  });

  it("puts back the current from before the window at its end, after the guard cut it again", async () => {
    await importing(run, 12);
    await importing(run, 12);
    expect(await limit()).toBeLessThan(BEFORE_A);
    await run.advanceTo(window.window.end);
    const restore = run.events.filter((event) => event.type === "restore").at(-1);
    expect(restore).toMatchObject({ ok: true, at: window.window.end });
    expect(restore?.message).toContain(`charger ${CHARGER} adjust-charge-power-limit restored`);
    expect(await limit()).toBe(BEFORE_A);
  });
});
