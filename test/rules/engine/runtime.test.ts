import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type Env, INVERTER, MINUTE, type Run, runsOf, startEnv } from "./helpers.js";

const at = (text: string) => Date.parse(`${text}Z`);
const START = at("2025-01-14T16:00");
const header = ["timezone: Europe/London", "tariffs:", "  import: { type: agile, file: agile.json }", "rules:"];
const notify = (title: string, body = "window {{ window.start }}-{{ window.end }} on {{ now.date }}") => [
  "    do:",
  `      - notify: { title: "${title} ({{ rule.name }})", body: "${body}", platforms: [persist] }`,
];
/** Cron and state rules have no window to name. */
const AT_NOW = "at {{ now.time }} on {{ now.date }}";
const RULES = [
  ...header,
  "  - name: cheap",
  "    when: { price: { below: 0.11 } }",
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 80 }] }',
  "  - name: manual",
  "    when: { cron: '0 3 * * *' }",
  "    if: { battery_soc_below: 1 }",
  "    do: [{ preset: eco-mode, with: { enabled: false } }]",
  "  - name: manual-dry",
  "    dry_run: true",
  "    when: { cron: '0 3 * * *' }",
  "    do: [{ preset: eco-mode, with: { enabled: false } }]",
  "  - name: sunny",
  "    when: { pv_power_above: 2000 }",
  ...notify("The sun is out", AT_NOW),
  "  - name: nightly",
  "    when: { cron: '0 2 * * *' }",
  ...notify("Nightly check", AT_NOW),
];

describe("the runtime the daemon drives: runNow and setEnabled", () => {
  let env: Env | undefined;
  const runs: Run[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) await run.runtime.stop();
    await env?.stop();
    env = undefined;
  });
  const start = async (options: { dryRun?: boolean } = {}) => {
    env = env ?? (await startEnv({ start: START, rules: RULES, ...options }));
    const run = await env.startRuntime();
    runs.push(run);
    return { env, run };
  };

  it("runNow runs the actions now (conditions aside), lists what was sent, and honours dry run", async () => {
    const { env, run } = await start();
    const eco = () => env.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    // The demo inverter runs in eco mode; both rules switch it off.
    expect((await eco()).enabled).toBe(true);

    const dry = await run.runtime.runNow("manual-dry");
    expect(dry).toMatchObject({ name: "manual-dry", ok: true, dryRun: true });
    expect(dry.actions).toEqual([
      expect.objectContaining({ action: expect.stringMatching(/^preset eco-mode/), ok: true, skipped: true }),
    ]);
    expect((await eco()).enabled).toBe(true);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: "action", rule: "manual-dry", status: "dry-run" }),
    );

    // manual's if: needs a SoC below 1% (and none is known): runNow does not check it.
    const result = await run.runtime.runNow("manual");
    expect(result).toMatchObject({ name: "manual", ok: true, dryRun: false });
    expect(result.actions).toEqual([
      expect.objectContaining({ action: expect.stringMatching(/^preset eco-mode/), ok: true, skipped: false }),
    ]);
    expect((await eco()).enabled).toBe(false);
    expect(run.store.audit.recent({ limit: 10 }).map((row) => row.requesterName)).toEqual(["manual"]);
    expect(run.runtime.list().find((rule) => rule.name === "manual")?.lastRun).toMatchObject({
      at: env.now(),
      ok: true,
    });
  });

  it("runNow of an unknown rule, or of a stopped engine, rejects with a clear error", async () => {
    const { run } = await start();
    await expect(run.runtime.runNow("nope")).rejects.toThrow(/no rule named "nope" \(have: .*manual/);
    await run.runtime.stop();
    await expect(run.runtime.runNow("manual")).rejects.toThrow(/stopped/);
  });

  it("the global dry run holds for runNow too", async () => {
    const { env, run } = await start({ dryRun: true });
    const result = await run.runtime.runNow("manual");
    expect(result).toMatchObject({ ok: true, dryRun: true, actions: [expect.objectContaining({ skipped: true })] });
    expect((await env.checker.inverterControl.presetValues(INVERTER, "eco-mode")).enabled).toBe(true);
  });

  it("a switched-off rule's triggers do nothing; the switch survives a restart; an unknown name throws", async () => {
    const { env, run } = await start();
    expect(() => run.runtime.setEnabled("nope", false)).toThrow(/no rule named "nope"/);
    run.runtime.setEnabled("sunny", false);
    run.runtime.setEnabled("nightly", false);
    await run.runtime.idle();
    expect(
      run.runtime
        .list()
        .filter((rule) => !rule.enabled)
        .map((rule) => rule.name),
    ).toEqual(["sunny", "nightly"]);

    await run.pushInverter({ pv: 0 });
    await run.pushInverter({ pv: 2500 });
    await run.advanceTo(at("2025-01-15T02:30"));
    expect(runsOf(run.events, "sunny")).toEqual([]);
    expect(runsOf(run.events, "nightly")).toEqual([]);
    expect(env.sim.simulator.world.notifications).toEqual([]);

    run.runtime.setEnabled("sunny", true);
    await run.pushInverter({ pv: 0 });
    await run.pushInverter({ pv: 2500 });
    expect(runsOf(run.events, "sunny")).toEqual([env.now()]);
    expect(env.sim.simulator.world.notifications.map((sent) => sent.title)).toEqual(["The sun is out (sunny)"]);

    // A new engine on the same SQLite file starts with the switches as they were left.
    await run.runtime.stop();
    const next = await start();
    const enabled = Object.fromEntries(next.run.runtime.list().map((rule) => [rule.name, rule.enabled]));
    expect(enabled).toEqual({ cheap: true, manual: true, "manual-dry": true, sunny: true, nightly: false });
    await next.run.advanceTo(at("2025-01-16T02:30"));
    expect(runsOf(next.run.events, "nightly")).toEqual([]);
  });

  it("switching a rule off inside its open window puts things back now, and it opens no more windows", async () => {
    const { env, run } = await start();
    const timedCharge = () => env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const before = await timedCharge();
    const window = run.runtime.list().find((rule) => rule.name === "cheap")?.nextWindow;
    if (!window) throw new Error("no window planned");
    expect(run.runtime.nextCheapWindow()).toMatchObject({ start: window.start, end: window.end });
    await run.advanceTo(window.start + MINUTE);
    expect(await timedCharge()).not.toEqual(before);
    expect(run.store.ruleObligations.pending()).toHaveLength(1);

    run.runtime.setEnabled("cheap", false);
    await run.runtime.idle();
    expect(env.now()).toBeLessThan(window.end);
    expect(await timedCharge()).toEqual(before);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    expect(run.events.filter((event) => event.type === "restore")).toEqual([
      expect.objectContaining({ rule: "cheap", ok: true, message: expect.stringMatching(/switched off/) }),
    ]);
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: "window", phase: "close", rule: "cheap", message: "the rule was switched off" }),
    );
    // Its windows are no longer the next cheap ones.
    expect(run.runtime.nextCheapWindow()).toBeUndefined();

    const opened = () => run.events.filter((event) => event.type === "window" && event.phase === "open").length;
    expect(opened()).toBe(1);
    await run.advanceTo(at("2025-01-15T09:00"));
    expect(opened()).toBe(1);
    expect(runsOf(run.events, "cheap")).toHaveLength(1);
    expect(await timedCharge()).toEqual(before);
  });
});

describe("run now on a window rule outside its window", () => {
  let env: Env | undefined;
  let run: Run | undefined;
  afterEach(async () => {
    await run?.runtime.stop();
    await env?.stop();
    run = undefined;
    env = undefined;
  });

  it("opens a window from now for the planned length, records the restore promise, and puts the slot back at its end", async () => {
    env = await startEnv({ start: START, rules: RULES });
    run = await env.startRuntime();
    const checker = env.checker;
    const timedCharge = () => checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const before = await timedCharge();
    const planned = run.runtime.list().find((rule) => rule.name === "cheap")?.nextWindow;
    if (!planned) throw new Error("no window planned");
    const now = env.now();
    expect(planned.start).toBeGreaterThan(now);
    const length = planned.end - planned.start;

    const result = await run.runtime.runNow("cheap");
    expect(result).toMatchObject({ name: "cheap", ok: true, dryRun: false });
    const [promise] = run.store.ruleObligations.pending();
    expect(promise).toMatchObject({ rule: "cheap", windowStart: now, windowEnd: now + length });
    const slot = (await timedCharge()).slots as { start_time: string; end_time: string }[];
    const clock = (at: number) => new Date(at).toISOString().slice(11, 16);
    // January: London is on UTC.
    expect(slot[0]).toMatchObject({ start_time: clock(now), end_time: clock(now + length) });
    expect(slot[0]?.start_time).not.toBe(slot[0]?.end_time);
    expect(run.runtime.list().find((rule) => rule.name === "cheap")?.nextWindow).toEqual({
      start: now,
      end: now + length,
      // The run-now window's own times in the words.
      readable: [`Timed charge to 80% ${clock(now)}–${clock(now + length)} on inverter SD2024G001`],
    });
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: "window",
        phase: "open",
        rule: "cheap",
        window: { start: now, end: now + length },
      }),
    );

    await run.advanceTo(now + length + MINUTE);
    expect(await timedCharge()).toEqual(before);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    expect(run.events.filter((event) => event.type === "restore")).toEqual([
      expect.objectContaining({ rule: "cheap", ok: true }),
    ]);
  });

  it("says a window run now at 27 s past the minute with its seconds, not rounded to the minute", async () => {
    env = await startEnv({ start: START, rules: RULES });
    run = await env.startRuntime();
    await run.advanceTo(env.now() + 27_000);
    const now = env.now();
    expect(now % 60_000).toBe(27_000);
    const result = await run.runtime.runNow("cheap");
    expect(result).toMatchObject({ ok: true });
    const open = run.events.find((event) => event.type === "window" && event.phase === "open");
    const [promise] = run.store.ruleObligations.pending();
    // January: London is on UTC.
    const clock = (at: number) => new Date(at).toISOString().slice(11, 19);
    expect(open?.message).toContain(`${clock(now)}-${clock(promise?.windowEnd ?? 0)}`);
    expect(clock(now).endsWith(":27")).toBe(true);
  });

  it("refuses, sending nothing, when no window is planned to take the length from", async () => {
    env = await startEnv({
      start: START,
      rules: [
        ...header,
        "  - name: never",
        "    when: { price: { below: -5 } }",
        "    do:",
        "      - preset: timed-charge",
        '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}" }] }',
      ],
    });
    run = await env.startRuntime();
    const before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const result = await run.runtime.runNow("never");
    expect(result).toMatchObject({ name: "never", ok: false, actions: [] });
    expect(result.message).toBe(
      "not run: never is a window rule and no window is planned for it yet, so its length is not known; nothing was sent",
    );
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
  });
});

describe("prices() and nextCheapWindow() follow the tariffs", () => {
  let env: Env | undefined;
  let run: Run | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await run?.runtime.stop();
    await env?.stop();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    run = undefined;
    env = undefined;
    server = undefined;
  });

  it("a zones tariff (Octopus Go style, British Summer Time): the price at an instant and the next cheap window", async () => {
    // Sunday 15 June 2025, 13:00 BST. Go's cheap hours are 00:30-04:30 local: 23:30-03:30 UTC.
    env = await startEnv({
      start: at("2025-06-15T12:00"),
      rules: [
        "timezone: Europe/London",
        "tariffs:",
        "  currency: GBP",
        "  import:",
        "    type: zones",
        "    price: 0.3",
        "    zones:",
        '      - { hours: "00:30-04:30", price: 0.09 }',
        '      - { hours: "16:00-19:00", days: [mon, tue, wed, thu, fri], price: 0.45 }',
        "  export: { type: fixed, price: 0.15 }",
        "rules:",
        "  - name: go",
        "    when: { price: { below: 0.1 } }",
        ...notify("Cheap hours begin"),
      ],
    });
    run = await env.startRuntime();
    const runtime = run.runtime;
    expect(runtime.prices()).toEqual({ import: 0.3, export: 0.15, currency: "GBP" });
    expect(runtime.prices(at("2025-06-15T23:29")).import).toBe(0.3);
    expect(runtime.prices(at("2025-06-15T23:30")).import).toBe(0.09);
    expect(runtime.prices(at("2025-06-16T03:29")).import).toBe(0.09);
    expect(runtime.prices(at("2025-06-16T03:30")).import).toBe(0.3);
    // The peak zone is weekdays only: Sunday 16:00 BST is the base price, Monday's is the peak.
    expect(runtime.prices(at("2025-06-15T15:00")).import).toBe(0.3);
    expect(runtime.prices(at("2025-06-16T15:00")).import).toBe(0.45);

    expect(runtime.nextCheapWindow()).toEqual({
      start: at("2025-06-15T23:30"),
      end: at("2025-06-16T03:30"),
      price: 0.09,
    });
    await run.advanceTo(at("2025-06-16T04:00"));
    expect(runtime.nextCheapWindow()).toEqual({
      start: at("2025-06-16T23:30"),
      end: at("2025-06-17T03:30"),
      price: 0.09,
    });
    expect(env.sim.simulator.world.notifications.map((sent) => sent.body.split("\n")[0])).toEqual([
      "window 00:30-04:30 on 2025-06-16",
    ]);
  });

  it("agile prices from a URL: tomorrow's, published late, are picked up and the plan moves to them", async () => {
    // Today (the Octopus day from 23:00 UTC) costs 20p, 10p from 20:00 to 22:00; tomorrow costs
    // 30p, 1p from 02:00 to 04:00, and is only published at 17:10 (due at 16:00).
    const START_AGILE = at("2025-01-14T12:00");
    const PUBLISHED = at("2025-01-14T17:10");
    const slots = (from: number, hours: number, priceOf: (slot: number) => number) =>
      Array.from({ length: hours * 2 }, (_, index) => {
        const slot = from + index * 30 * MINUTE;
        return {
          valid_from: new Date(slot).toISOString(),
          valid_to: new Date(slot + 30 * MINUTE).toISOString(),
          value_inc_vat: priceOf(slot),
        };
      });
    const today = slots(at("2025-01-13T23:00"), 24, (slot) =>
      slot >= at("2025-01-14T20:00") && slot < at("2025-01-14T22:00") ? 10 : 20,
    );
    const tomorrow = slots(at("2025-01-14T23:00"), 24, (slot) =>
      slot >= at("2025-01-15T02:00") && slot < at("2025-01-15T04:00") ? 1 : 30,
    );
    const requested: number[] = [];
    server = createServer((_request, response) => {
      const now = env?.now() ?? 0;
      requested.push(now);
      const results = now >= PUBLISHED ? [...tomorrow, ...today] : today;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ count: results.length, next: null, results: results.reverse() }));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    env = await startEnv({
      start: START_AGILE,
      rules: [
        "timezone: Europe/London",
        "tariffs:",
        `  import: { type: agile, url: "http://127.0.0.1:${port}/rates/", refresh: 30m, published_at: "16:00" }`,
        "rules:",
        "  - name: cheapest-two",
        '    when: { cheapest: { hours: 2, before: "07:00" } }',
        ...notify("Cheapest hours begin"),
      ],
    });
    run = await env.startRuntime();
    const runtime = run.runtime;
    // Only today's prices: the cheapest two hours known before the deadline are tonight's 10p ones.
    expect(runtime.nextCheapWindow()).toEqual({
      start: at("2025-01-14T20:00"),
      end: at("2025-01-14T22:00"),
      price: 0.1,
    });
    expect(runtime.prices(at("2025-01-15T02:00")).import).toBeUndefined();

    await run.advanceTo(PUBLISHED - MINUTE);
    expect(runtime.nextCheapWindow()).toMatchObject({ start: at("2025-01-14T20:00") });
    // Looked at the publishing time, found nothing new, and looks again every 30 minutes.
    expect(requested.filter((time) => time >= at("2025-01-14T16:00"))).toEqual([
      at("2025-01-14T16:00"),
      at("2025-01-14T16:30"),
      at("2025-01-14T17:00"),
    ]);

    await run.advanceTo(at("2025-01-14T18:00"));
    expect(runtime.prices(at("2025-01-15T02:00")).import).toBe(0.01);
    expect(runtime.nextCheapWindow()).toEqual({
      start: at("2025-01-15T02:00"),
      end: at("2025-01-15T04:00"),
      price: 0.01,
    });
    expect(runtime.list()[0]?.nextWindow).toEqual({
      start: at("2025-01-15T02:00"),
      end: at("2025-01-15T04:00"),
      readable: ["Notify “Cheapest hours begin (cheapest-two)”"],
    });

    await run.advanceTo(at("2025-01-15T07:00"));
    const opened = run.events.flatMap((event) =>
      event.type === "window" && event.phase === "open" ? [event.window] : [],
    );
    expect(opened).toEqual([{ start: at("2025-01-15T02:00"), end: at("2025-01-15T04:00") }]);
    expect(env.sim.simulator.world.notifications.map((sent) => sent.body.split("\n")[0])).toEqual([
      "window 02:00-04:00 on 2025-01-15",
    ]);
  });
});
