import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARGER, type Env, MINUTE, startEnv } from "./helpers.js";

// Sunday evening in June: the demo car is home overnight.
const START = Date.UTC(2025, 5, 15, 16, 0);
const DEADLINE = Date.UTC(2025, 5, 16, 6, 0);
const RULES = [
  "timezone: Europe/London",
  "ev: { charge_kw: 7 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "rules:",
  "  - name: car",
  '    when: { ev: { kwh: 6, before: "07:00", after: "22:00" } }',
  "    do:",
  "      - charger: change-mode",
  "        with: { mode: Boost }",
  "      - charger: start-charge",
];

describe("an EV gets its energy by the deadline in the cheapest slots", () => {
  let env: Env;
  let run: Awaited<ReturnType<Env["startRuntime"]>>;
  let modeBefore: unknown;
  const during: { status: string | undefined; mode: unknown }[] = [];

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    modeBefore = (await env.checker.evChargers.commandData(CHARGER, "change-mode")).active;
    run = await env.startRuntime();
    await run.advanceTo(DEADLINE, async () => {
      const window = run.runtime.list()[0]?.nextWindow;
      const now = env.now();
      if (!window || window.start > now || window.end <= now) return;
      const charger = await env.checker.evChargers.get(CHARGER);
      const mode = (await env.checker.evChargers.commandData(CHARGER, "change-mode")).active;
      during.push({ status: charger.status ?? undefined, mode });
    });
  }, 60_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  it("boosts and starts the charger in the planned window, and puts its mode back after", async () => {
    expect(during.length).toBeGreaterThan(0);
    expect(during[0]).toMatchObject({ mode: "Boost" });
    expect(run.events.filter((event) => event.type === "restore")).toEqual([expect.objectContaining({ ok: true })]);
    expect((await env.checker.evChargers.commandData(CHARGER, "change-mode")).active).toBe(modeBefore);
  });

  it("delivers the energy asked for before the deadline", async () => {
    const sessions = await env.checker.evChargers.chargingSessions(CHARGER).all();
    const window = run.events.find((event) => event.type === "window" && event.phase === "open");
    if (window?.type !== "window") throw new Error("no window opened");
    const inWindow = sessions.filter(
      (session) => Date.parse(String(session.started_at ?? "")) >= window.window.start - MINUTE,
    );
    const kwh = inWindow.reduce((sum, session) => sum + ((session.meter_stop ?? 0) - (session.meter_start ?? 0)), 0);
    expect(kwh).toBeGreaterThanOrEqual(6);
  });
});
