import { mkdtempSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { EventBus } from "../../src/bus/event-bus.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import type { RuleStatus } from "../../src/rules-runtime/rules.js";
import { type HistoryRecord, openStore, type Store } from "../../src/store/index.js";
import type { Inventory } from "../../src/telemetry/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import type { DailyEnergy, HistoryColumns, LiveSnapshot } from "../../src/web/api-types.js";
import { type WebFeature, webFeature } from "../../src/web/feature.js";
import type { WebOptions } from "../../src/web/options.js";
import type { PlanView } from "../../src/web/plan-view.js";
import { checkPeer } from "../../src/web/security.js";
import { MIDDAY } from "../helpers/simulator.js";
import { type Demo, fillYear, freePort, startDemo, YEAR_DEVICE } from "./demo.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-webapi-"));
const COMMAND = { "content-type": "application/json", "x-energy2mqtt-request": "1" };

describe("the web API against the demo daemon", () => {
  let demo: Demo;
  let points = 0;

  beforeAll(async () => {
    points = fillYear(join(dir, "e2m.db"));
    // At MIDDAY (the default): the house's solar is what the first test reads.
    demo = await startDemo(dir, {}, MIDDAY);
  }, 120_000);
  afterAll(async () => {
    await demo?.stop();
  });

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(new URL(path, demo.url));
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };

  it("lists every device of the demo house with its availability and the house's flows, solar at midday", async () => {
    // The snapshot fills from the daemon's next readings once a page asks for it.
    let now: LiveSnapshot | undefined;
    await vi.waitFor(
      async () => {
        now = await get<LiveSnapshot>("api/now");
        expect(now.flows.solar).toBeTruthy();
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(now?.devices.map((d) => d.id)).toContain("sd2024g001");
    expect(now?.devices.find((d) => d.id === "sd2024g001")?.available).toBe(true);
    expect(now?.flows.soc).toBeGreaterThanOrEqual(0);
    expect(typeof now?.flows.home).toBe("number");
  });

  it("streams live values by server-sent events, first a snapshot, then the bus's readings", async () => {
    const controller = new AbortController();
    const response = await fetch(new URL("api/events", demo.url), { signal: controller.signal });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body?.getReader();
    let text = "";
    const decoder = new TextDecoder();
    while (reader && (text.match(/event: live/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    expect(text).toContain("event: rules");
    expect((text.match(/event: live/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it("serves the plan: prices, both rules' windows, their overlap as a conflict and a SoC line that rises and falls", async () => {
    const { plan } = await get<{ plan: PlanView }>("api/plan");
    expect(plan.currency).toBe("GBP");
    expect(plan.slots.length).toBeGreaterThanOrEqual(48);
    expect(plan.rules.map((rule) => rule.name)).toEqual(["battery-by-morning", "overnight-top-up"]);
    expect(plan.rules.every((rule) => rule.windows.length > 0)).toBe(true);
    expect(plan.conflicts[0]?.rules).toEqual(["battery-by-morning", "overnight-top-up"]);
    // The house model: the battery rises in the charge windows and falls with the house's use,
    // learned from the days of the demo's own inverter points the daemon backfilled.
    const socs = plan.soc.map((point) => point.soc);
    expect(plan.soc.length).toBeGreaterThanOrEqual(48);
    const rises = socs.slice(1).map((soc, index) => soc - (socs[index] ?? soc));
    expect(Math.max(...rises)).toBeGreaterThan(5);
    expect(Math.min(...rises)).toBeLessThan(-0.2);
    expect(plan.notes.join("\n")).toMatch(/estimated from \d+ days? of local history/);
  });

  it("words a rule's next window on api/rules as the plan words the same window", async () => {
    const { rules } = await get<{ rules: RuleStatus[] }>("api/rules");
    const { plan } = await get<{ plan: PlanView }>("api/plan");
    const next = rules.find((rule) => rule.name === "overnight-top-up")?.nextWindow;
    expect(next?.readable).toEqual([
      expect.stringMatching(/^Timed charge to 100% \d\d:\d\d–\d\d:\d\d on inverter SD2024G001$/),
    ]);
    // The cheapest 3 hours before 07:00 do not move with the SoC: the plan has the same window.
    const planned = plan.rules
      .find((rule) => rule.name === "overnight-top-up")
      ?.windows.find((window) => window.start === next?.start && window.end === next?.end);
    expect(planned?.readable).toEqual(next?.readable);
  });

  it("switches a rule off and on through the running rules, refusing cross-site and non-POST requests", async () => {
    const url = new URL("api/rules/overnight-top-up/enable", demo.url);
    const body = JSON.stringify({ enabled: false });
    expect((await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })).status).toBe(
      403,
    );
    expect(
      (await fetch(url, { method: "POST", headers: { ...COMMAND, origin: "http://evil.example" }, body })).status,
    ).toBe(403);
    expect((await fetch(url, { headers: COMMAND })).status).toBe(405);
    const { rules: before } = await get<{ rules: RuleStatus[] }>("api/rules");
    expect(before.find((rule) => rule.name === "overnight-top-up")?.enabled).toBe(true);

    const origin = new URL(demo.url).origin;
    const off = await fetch(url, { method: "POST", headers: { ...COMMAND, origin }, body });
    expect(off.status).toBe(200);
    const { rules } = await get<{ rules: RuleStatus[] }>("api/rules");
    expect(rules.find((rule) => rule.name === "overnight-top-up")?.enabled).toBe(false);
    // The plan follows the switch: the rule is off, so it no longer conflicts.
    const { plan } = await get<{ plan: PlanView }>("api/plan");
    expect(plan.rules.find((rule) => rule.name === "overnight-top-up")?.enabled).toBe(false);
    expect(plan.conflicts).toEqual([]);
    const on = await fetch(url, { method: "POST", headers: COMMAND, body: JSON.stringify({ enabled: true }) });
    expect(on.status).toBe(200);
    expect(
      (await get<{ rules: RuleStatus[] }>("api/rules")).rules.find((r) => r.name === "overnight-top-up")?.enabled,
    ).toBe(true);
  });

  it("dry-runs a rule from the plan: its windows and actions, nothing sent", async () => {
    const response = await fetch(new URL("api/rules/battery-by-morning/dry-run", demo.url), {
      method: "POST",
      headers: COMMAND,
      body: "{}",
    });
    const answer = (await response.json()) as { dryRun: boolean; windows: { actions: string[] }[] };
    expect(answer.dryRun).toBe(true);
    expect(answer.windows[0]?.actions[0]).toContain("preset timed-charge");
  });

  it("returns a year of 5-minute points averaged to what the screen shows, and a day exactly", async () => {
    expect(points).toBe(365 * 288);
    const { devices } = await get<{ devices: { device: string; first: number; last: number; count: number }[] }>(
      "api/history/devices",
    );
    const year = devices.find((device) => device.device === YEAR_DEVICE);
    expect(year?.count).toBe(points);
    if (!year) return;
    const all = await get<HistoryColumns>(
      `api/history?device=${YEAR_DEVICE}&from=${year.first}&to=${year.last + 1}&width=1000`,
    );
    expect(all.points).toBe(points);
    expect(all.time.length).toBeLessThanOrEqual(2000);
    expect(all.time.length).toBeGreaterThan(1500);
    expect(all.bucketSeconds).toBeGreaterThan(300);
    expect(all.soc.every((soc) => soc === null || (soc >= 10 && soc <= 90))).toBe(true);
    const day = await get<HistoryColumns>(
      `api/history?device=${YEAR_DEVICE}&from=${year.last - 86_400_000 + 1}&to=${year.last + 1}&width=1000`,
    );
    expect(day.time.length).toBe(288);
    expect(day.bucketSeconds).toBeNull();
    expect(day.home.every((home) => home === 700)).toBe(true);
  });

  it("refuses a bad history query with what is wrong", async () => {
    const response = await fetch(new URL(`api/history?device=${YEAR_DEVICE}&from=abc&to=1`, demo.url));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("from");
  });

  it("tells the health: a simulated cloud that answered, the budget, the store's size and versions", async () => {
    const health = await get<{
      version: string;
      cloud: { simulated: boolean; lastStatus: number; requests: number };
      budget: { limit: number };
      store: { bytes: number };
    }>("api/health");
    expect(health.version).toBe("0.0.0-web");
    expect(health.cloud.requests).toBeGreaterThan(0);
    expect(health.cloud.lastStatus).toBe(200);
    expect(health.budget.limit).toBeGreaterThan(0);
    expect(health.store.bytes).toBeGreaterThan(1_000_000);
  });

  it("serves the page with the ingress prefix as its base, and nothing outside its files", async () => {
    const page = await fetch(demo.url, { headers: { "x-ingress-path": "/api/hassio_ingress/abc123" } });
    const html = await page.text();
    expect(html).toContain('<base href="/api/hassio_ingress/abc123/">');
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const script = await fetch(new URL("app.js", demo.url), { headers: { "accept-encoding": "gzip, br" } });
    expect(script.headers.get("content-encoding")).toBe("gzip");
    expect((await script.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(new URL("feature.js", demo.url))).status).toBe(404);
    expect((await fetch(new URL("../package.json", demo.url))).status).toBe(404);
  });
});

describe("the web feature's guards", () => {
  let store: Store;
  let assetsDir: string;
  const started: WebFeature[] = [];
  const empty = { timezone: "UTC", inverters: [], ems: [], evChargers: [], smartDevices: [], sites: [] };

  beforeAll(async () => {
    store = openStore(join(dir, "guards.db"));
    assetsDir = await buildWebAssets(join(dir, "public"));
  }, 60_000);
  afterAll(async () => {
    for (const feature of started) await feature.stop();
    store?.close();
  });

  const start = async (web: Record<string, unknown>, extra: Partial<WebOptions> = {}): Promise<WebFeature> => {
    const feature = webFeature({
      config: configSchema.parse({ web: { port: await freePort(), ...web } }).web,
      bus: new EventBus(() => undefined),
      store,
      storePath: join(dir, "guards.db"),
      inventory: () => empty as unknown as Inventory,
      rules: () => undefined,
      plan: async () => undefined,
      budget: () => undefined,
      version: "0.0.0-guards",
      clock: new VirtualClock(MIDDAY),
      simulated: false,
      logger: createLogger("silent"),
      assetsDir,
      ...extra,
    });
    await feature.start();
    started.push(feature);
    return feature;
  };

  it("asks for the token on every API call when one is set, by header or by ?token=", async () => {
    const token = "a-token-of-24-characters";
    const feature = await start({ token });
    expect((await fetch(new URL("api/now", feature.url))).status).toBe(401);
    expect((await fetch(new URL("api/now", feature.url), { headers: { authorization: "Bearer wrong" } })).status).toBe(
      401,
    );
    expect(
      (await fetch(new URL("api/now", feature.url), { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await fetch(new URL(`api/now?token=${token}`, feature.url))).status).toBe(200);
    // The page itself carries no data: it loads, then asks for the token.
    expect((await fetch(feature.url)).status).toBe(200);
  });

  it("gives each day's import, export and cost: the half-hours at their prices, none for a day not fully known", async () => {
    const day = Date.UTC(2026, 10, 20);
    const rows: HistoryRecord[] = [];
    const halfHour = (at: number, bought: number, sold: number): HistoryRecord => ({
      kind: "flow.half_hour",
      device: "COST0001",
      at,
      key: "",
      data: { "0": 0, "1": 0, "2": sold, "3": bought, "4": 0, "5": 0, "6": 0 },
    });
    for (const start of [day, day + 86_400_000])
      rows.push({
        kind: "flow.day",
        device: "COST0001",
        at: start,
        key: "",
        data: { "0": 1, "1": 1, "2": 4.8, "3": 24, "4": 0, "5": 2, "6": 0 },
      });
    // The first day whole: 0.5 kWh bought and 0.1 sold each half-hour, dearer after 16:00.
    for (let slot = 0; slot < 48; slot++) rows.push(halfHour(day + slot * 1_800_000, 0.5, 0.1));
    // The second day's half-hours only partly read.
    for (let slot = 0; slot < 20; slot++) rows.push(halfHour(day + 86_400_000 + slot * 1_800_000, 0.5, 0.1));
    store.history.write(rows);
    const prices = (at: number) => ({
      import: at - day >= 16 * 3_600_000 ? 0.35 : 0.25,
      export: 0.15,
      currency: "GBP",
    });
    const feature = await start({}, { prices });
    const url = new URL("api/history/days", feature.url);
    url.search = new URLSearchParams({
      device: "COST0001",
      from: String(day),
      to: String(day + 2 * 86_400_000),
    }).toString();
    const days = (await (await fetch(url)).json()) as DailyEnergy;
    expect(days.importKwh).toEqual([24, 24]);
    expect(days.exportKwh).toEqual([4.8, 4.8]);
    // 32 half-hours bought at 0.25 and 16 at 0.35, 0.5 kWh each, less 48 x 0.1 kWh sold at 0.15: 4 + 2.8 - 0.72.
    expect(days.cost).toEqual([6.08, null]);
    expect(days.currency).toBe("GBP");
  });

  it("without a token answers only requests made to a loopback name (no DNS rebinding)", async () => {
    const feature = await start({});
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const address = new URL("api/now", feature.url);
        get({ hostname: address.hostname, port: address.port, path: address.pathname, headers: { host } }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        }).on("error", reject);
      });
    const port = new URL(feature.url).port;
    expect(await statusFor(`rebound.example:${port}`)).toBe(403);
    expect(await statusFor(`127.0.0.1:${port}`)).toBe(200);
    expect(await statusFor(`localhost:${port}`)).toBe(200);
  });

  it("behind ingress answers only the Supervisor's address", async () => {
    const feature = await start({ ingress: true });
    const response = await fetch(new URL("api/now", feature.url));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Supervisor");
    const from = (address: string) =>
      ({ socket: { remoteAddress: address }, headers: {} }) as unknown as IncomingMessage;
    expect(checkPeer({ ingress: true }, from("::ffff:172.30.32.2")).ok).toBe(true);
    expect(checkPeer({ ingress: true }, from("172.30.32.3")).ok).toBe(false);
  });

  it("says when no rules run, and takes the next port when its own is taken", async () => {
    const first = await start({});
    const port = Number(new URL(first.url).port);
    const second = await start({ port });
    expect(Number(new URL(second.url).port)).toBe(port + 1);
    const response = await fetch(new URL("api/rules/x/enable", second.url), {
      method: "POST",
      headers: COMMAND,
      body: "{}",
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: "no rules are running" });
  });

  it("tells a rule command sent while the rules are still loading to try again in a few seconds", async () => {
    const feature = await start({}, { rulesStarting: () => true });
    const response = await fetch(new URL("api/rules/night/run", feature.url), {
      method: "POST",
      headers: COMMAND,
      body: "{}",
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: "starting, try again in a few seconds: the rules are not loaded yet",
    });
  });
});
