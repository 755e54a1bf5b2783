import { afterEach, describe, expect, it } from "vitest";
import { type Env, HOUR, INVERTER, MINUTE, type Run, runsOf, startEnv } from "./helpers.js";

/** A notify action the simulator accepts (title of 10 characters or more, body of 20 or more). */
const notify = (title: string) => [
  "    do:",
  `      - notify: { title: "${title} ({{ rule.name }})", body: "sent by the rule at {{ now.date }} {{ now.time }}", platforms: [persist] }`,
];

/** The notifications the simulator received over HTTP, by title. */
const sent = (env: Env) => env.sim.simulator.world.notifications.map((notification) => notification.title);

describe("cron triggers on the engine's scheduler", () => {
  let env: Env | undefined;
  let run: Run | undefined;
  afterEach(async () => {
    await run?.runtime.stop();
    await env?.stop();
    run = undefined;
    env = undefined;
  });

  it('"30 1 * * *" in Europe/London fires at 01:30 local (00:30 UTC in summer), not before, once a day', async () => {
    // Saturday 14 June 2025, 13:00 BST.
    const start = Date.UTC(2025, 5, 14, 12, 0);
    env = await startEnv({
      start,
      rules: [
        "timezone: Europe/London",
        "rules:",
        "  - name: nightly",
        "    when: { cron: '30 1 * * *' }",
        ...notify("Nightly check"),
      ],
    });
    run = await env.startRuntime();
    const firstFire = Date.UTC(2025, 5, 15, 0, 30);
    await run.advanceTo(firstFire - MINUTE);
    expect(runsOf(run.events, "nightly")).toEqual([]);
    expect(sent(env)).toEqual([]);
    await run.advanceTo(firstFire + MINUTE);
    expect(runsOf(run.events, "nightly")).toEqual([firstFire]);
    await run.advanceTo(firstFire + 24 * HOUR + MINUTE);
    expect(runsOf(run.events, "nightly")).toEqual([firstFire, firstFire + 24 * HOUR]);
    expect(sent(env)).toEqual(["Nightly check (nightly)", "Nightly check (nightly)"]);
    expect(run.runtime.list()[0]?.lastRun).toMatchObject({ at: firstFire + 24 * HOUR, ok: true });
  });

  it("reads the hours in the rules file's time zone, not the account's", async () => {
    // The inventory says Europe/London; the rules file says New York (EDT, UTC-4, in June).
    const start = Date.UTC(2025, 5, 14, 12, 0);
    env = await startEnv({
      start,
      rules: [
        "timezone: America/New_York",
        "rules:",
        "  - name: morning",
        "    when: { cron: '0 6 * * *' }",
        ...notify("Morning check"),
      ],
    });
    run = await env.startRuntime();
    await run.advanceTo(Date.UTC(2025, 5, 15, 9, 59));
    expect(runsOf(run.events, "morning")).toEqual([]);
    await run.advanceTo(Date.UTC(2025, 5, 15, 10, 1));
    expect(runsOf(run.events, "morning")).toEqual([Date.UTC(2025, 5, 15, 10, 0)]);
  });

  it("a weekday-only cron skips the weekend", async () => {
    // Thursday 16 January 2025, noon; the cron runs at 07:00 Monday to Friday.
    const start = Date.UTC(2025, 0, 16, 12, 0);
    env = await startEnv({
      start,
      rules: [
        "timezone: Europe/London",
        "rules:",
        "  - name: weekdays",
        "    when: { cron: '0 7 * * 1-5' }",
        ...notify("Weekday check"),
      ],
    });
    run = await env.startRuntime();
    await run.advanceTo(Date.UTC(2025, 0, 21, 12, 0));
    expect(runsOf(run.events, "weekdays").map((at) => new Date(at).toISOString())).toEqual([
      "2025-01-17T07:00:00.000Z",
      "2025-01-20T07:00:00.000Z",
      "2025-01-21T07:00:00.000Z",
    ]);
    expect(sent(env)).toHaveLength(3);
  });
});

describe("state triggers from telemetry readings", () => {
  let env: Env | undefined;
  let run: Run | undefined;
  afterEach(async () => {
    await run?.runtime.stop();
    await env?.stop();
    run = undefined;
    env = undefined;
  });

  /** Advances a minute (so each reading has its own instant) and returns the new time. */
  const tick = async () => {
    if (!env || !run) throw new Error("no engine");
    await run.advanceTo(env.now() + MINUTE);
    return env.now();
  };

  it("battery_soc_below fires once on the crossing, not on the first reading if already below, again after going back above", async () => {
    env = await startEnv({
      start: Date.UTC(2025, 0, 14, 12, 0),
      rules: [
        "rules:",
        "  - name: soc-low",
        "    when: { battery_soc_below: 50 }",
        ...notify("Battery low"),
        "  - name: sunny",
        "    when: { pv_power_above: 2000 }",
        ...notify("Sun is out"),
      ],
    });
    run = await env.startRuntime();
    const expected: number[] = [];
    await run.pushInverter({ soc: 30, pv: 0 }); // first reading, already below: only sets where we are
    await tick();
    await run.pushInverter({ soc: 35, pv: 0 });
    await tick();
    await run.pushInverter({ soc: 60, pv: 0 });
    expected.push(await tick());
    await run.pushInverter({ soc: 40, pv: 0 }); // crosses below: fires
    await tick();
    await run.pushInverter({ soc: 30, pv: 0 }); // still below: nothing
    await tick();
    await run.pushInverter({ soc: 70, pv: 0 });
    await tick();
    await run.pushInverter({ soc: 10 }, "SOMEOTHERINVERTER"); // another inverter's reading is not ours
    expected.push(await tick());
    await run.pushInverter({ soc: 45, pv: 0 }); // crosses below again: fires
    expect(runsOf(run.events, "soc-low")).toEqual(expected);
    expect(runsOf(run.events, "sunny")).toEqual([]);

    const sunny = await tick();
    await run.pushInverter({ pv: 2500 });
    await tick();
    await run.pushInverter({ pv: 3000 });
    expect(runsOf(run.events, "sunny")).toEqual([sunny]);
    expect(sent(env).filter((title) => title.startsWith("Battery low"))).toHaveLength(2);
    expect(sent(env).filter((title) => title.startsWith("Sun is out"))).toHaveLength(1);
  });

  it("ev_plugged and ev_status fire from ev.status readings; grid_import_above from the grid power", async () => {
    env = await startEnv({
      start: Date.UTC(2025, 0, 14, 12, 0),
      rules: [
        "rules:",
        "  - name: plugged-in",
        "    when: { ev_plugged: true }",
        ...notify("Car plugged in"),
        "  - name: charging",
        "    when: { ev_status: [Charging] }",
        ...notify("Car is charging"),
        "  - name: importing",
        "    when: { grid_import_above: 3000 }",
        ...notify("Heavy grid import"),
      ],
    });
    run = await env.startRuntime();
    const plugged: number[] = [];
    const charging: number[] = [];
    await run.pushCharger("Available");
    plugged.push(await tick());
    await run.pushCharger("Preparing");
    charging.push(await tick());
    await run.pushCharger("Charging");
    await tick();
    await run.pushCharger("Finishing");
    await tick();
    await run.pushCharger("Available");
    plugged.push(await tick());
    await run.pushCharger("Preparing");
    expect(runsOf(run.events, "plugged-in")).toEqual(plugged);
    expect(runsOf(run.events, "charging")).toEqual(charging);

    // The API counts grid power negative while importing.
    const importing: number[] = [];
    await run.pushInverter({ grid: -1000 });
    importing.push(await tick());
    await run.pushInverter({ grid: -4000 });
    await tick();
    await run.pushInverter({ grid: -4500 });
    await tick();
    await run.pushInverter({ grid: 5000 }); // exporting: no import
    importing.push(await tick());
    await run.pushInverter({ grid: -3500 });
    expect(runsOf(run.events, "importing")).toEqual(importing);
    expect(sent(env)).toEqual([
      "Car plugged in (plugged-in)",
      "Car is charging (charging)",
      "Car plugged in (plugged-in)",
      "Heavy grid import (importing)",
      "Heavy grid import (importing)",
    ]);
  });
});

describe("if: conditions block a triggered rule", () => {
  let env: Env | undefined;
  let run: Run | undefined;
  afterEach(async () => {
    await run?.runtime.stop();
    await env?.stop();
    run = undefined;
    env = undefined;
  });

  const at = (text: string) => Date.parse(`${text}Z`);
  const isoOf = (times: number[]) => times.map((time) => new Date(time).toISOString().slice(0, 16));

  it("time window, days and price_below hold the cron runs back outside them", async () => {
    env = await startEnv({
      // Tuesday 14 January 2025, noon (GMT).
      start: at("2025-01-14T12:00"),
      rules: [
        "timezone: Europe/London",
        "tariffs:",
        '  import: { type: zones, price: 0.3, zones: [{ hours: "00:30-04:30", price: 0.09 }] }',
        "rules:",
        "  - name: night-hours",
        "    when: { cron: '0 * * * *' }",
        '    if: { time: "01:00-04:00" }',
        "    do: [{ preset: eco-mode, with: { enabled: false } }]",
        "  - name: cheap-hours",
        "    when: { cron: '0 * * * *' }",
        "    if: { price_below: 0.1 }",
        "    do: [{ preset: timed-charge, with: { enabled: true } }]",
        "  - name: weekends",
        "    when: { cron: '0 12 * * *' }",
        "    if: { days: [sat, sun] }",
        ...notify("Weekend check"),
      ],
    });
    const eco = async () => (await env?.checker.inverterControl.presetValues(INVERTER, "eco-mode"))?.enabled;
    expect(await eco()).toBe(true);
    run = await env.startRuntime();
    await run.advanceTo(at("2025-01-15T01:00") - MINUTE);
    expect(await eco()).toBe(true);
    await run.advanceTo(at("2025-01-15T12:00"));
    expect(isoOf(runsOf(run.events, "night-hours"))).toEqual([
      "2025-01-15T01:00",
      "2025-01-15T02:00",
      "2025-01-15T03:00",
    ]);
    expect(isoOf(runsOf(run.events, "cheap-hours"))).toEqual([
      "2025-01-15T01:00",
      "2025-01-15T02:00",
      "2025-01-15T03:00",
      "2025-01-15T04:00",
    ]);
    const status = (name: string) => run?.runtime.list().find((rule) => rule.name === name);
    // The last run (noon) was held back, and says why.
    expect(status("night-hours")?.lastRun).toMatchObject({
      ok: true,
      message: expect.stringMatching(/skipped.*01:00-04:00/),
    });
    expect(status("cheap-hours")?.lastRun?.message).toMatch(/skipped.*0\.3 is not below 0\.1/);
    // Each run that its condition let through went to the inverter through the gate, no other.
    expect(await eco()).toBe(false);
    const audit = run.store.audit.recent({ limit: 100 });
    expect(audit.filter((row) => row.requesterName === "night-hours")).toHaveLength(3);
    expect(audit.filter((row) => row.requesterName === "cheap-hours")).toHaveLength(4);

    await run.advanceTo(at("2025-01-20T12:30"));
    expect(isoOf(runsOf(run.events, "weekends"))).toEqual(["2025-01-18T12:00", "2025-01-19T12:00"]);
    expect(sent(env)).toHaveLength(2);
    expect(status("weekends")?.lastRun?.message).toMatch(/skipped, not on sat, sun/);
  });

  it("battery_soc_below holds a state-triggered rule back until the SoC is low, and while it is unknown", async () => {
    env = await startEnv({
      start: at("2025-01-14T12:00"),
      rules: [
        "rules:",
        "  - name: sun-and-low",
        "    when: { pv_power_above: 1000 }",
        "    if: { battery_soc_below: 50 }",
        ...notify("Sun on a low battery"),
      ],
    });
    // Telemetry's first round brought no inverter values: the SoC is not known.
    run = await env.startRuntime({ firstRound: false });
    const status = () => run?.runtime.list()[0];
    await run.pushInverter({ pv: 0 });
    await run.pushInverter({ pv: 1500 }); // fires, but the SoC is not known yet
    expect(status()?.lastRun?.message).toMatch(/skipped, the live state it checks is not known yet/);
    await run.pushInverter({ pv: 0, soc: 80 });
    await run.pushInverter({ pv: 1500 }); // fires, but the battery is not low
    expect(status()?.lastRun?.message).toMatch(/skipped, the live state does not match/);
    expect(runsOf(run.events, "sun-and-low")).toEqual([]);
    await run.pushInverter({ pv: 0, soc: 40 });
    await run.advanceTo(env.now() + MINUTE);
    await run.pushInverter({ pv: 1500 });
    expect(runsOf(run.events, "sun-and-low")).toEqual([env.now()]);
    expect(sent(env)).toEqual(["Sun on a low battery (sun-and-low)"]);
  });
});
