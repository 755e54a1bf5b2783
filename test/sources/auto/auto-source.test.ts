import { setTimeout as wait } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log/log.js";
import {
  type AutoSource,
  autoSource,
  cloudSource,
  type Inventory,
  localSource,
  PathChoice,
  type PathSwitch,
  type PollConfig,
  type Resource,
} from "../../../src/sources/index.js";
import { MIDDAY, recentFleetScenario, SIM_GAP_MS, startTestSimulator } from "../../helpers/simulator.js";

/*
 * source: auto's composition on the demo house over both paths: a real cloud client to the
 * simulator's API and real sessions to its dongles, on the simulator's manual clock, moved on
 * while a poll waits so that the dongles' timeouts run in simulated time.
 */

const POLL: PollConfig = {
  inverter: 30_000,
  meter: 300_000,
  ems: 30_000,
  ev_charger: 30_000,
  events: 300_000,
  smart_device: 300_000,
};
const INVERTER = "SD2024G001";

describe("source: auto on the demo house (cloud client and dongle sessions on one manual clock)", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  const cloudCalls: string[] = [];
  const switches: PathSwitch[] = [];
  const closers: (() => void)[] = [];

  const clock = () => sim.simulator.clock;
  /** Moves the clock on while `work` is under way, a quarter second at a time. */
  const settle = async <T>(work: Promise<T>): Promise<T> => {
    let done = false;
    const tracked = work.finally(() => {
      done = true;
    });
    // Its failure is the caller's, once the loop ends; not an unhandled rejection meanwhile.
    tracked.catch(() => undefined);
    while (!done) {
      await wait(5);
      if (!done) clock().advance(250);
    }
    return tracked;
  };
  const build = (failbackMs = 300_000): AutoSource => {
    const client = sim.clientFor("owner", {
      clock: clock(),
      onRequest: (event) => cloudCalls.push(`${event.status} ${event.endpoint}`),
    });
    const local = localSource({
      dongles: sim.simulator.dongles.map((dongle) => ({
        host: "127.0.0.1",
        port: dongle.port,
        passive: false,
        gap_ms: SIM_GAP_MS,
      })),
      clock: clock(),
      timezone: "Europe/London",
      random: () => 0,
    });
    closers.push(
      () => local.close(),
      () => client.close(),
    );
    const choice = new PathChoice({ clock: clock(), failbackMs, onPath: (s) => switches.push(s) });
    return autoSource({ cloud: cloudSource(client), local, choice, lan: { liveMs: 10_000, clock: clock() } });
  };
  const named = (resources: readonly Resource[], name: string): Resource => {
    const found = resources.find((resource) => resource.name === name);
    if (!found) throw new Error(`no resource ${name} in ${resources.map((r) => r.name).join(", ")}`);
    return found;
  };
  const dongleFault = (serial: string, corrupt: number) => sim.admin(`/dongles/${serial}`, { corrupt_frames: corrupt });

  let source: AutoSource;
  let inventory: Inventory;
  let resources: Resource[];
  let live: Resource;
  const poll = (resource: Resource) => settle(resource.poll(new AbortController().signal));

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    source = build();
    inventory = await settle(source.discover());
    resources = source.resources(inventory, POLL, () => clock().now());
    live = named(resources, `inverter.live ${INVERTER} (LAN or cloud)`);
  }, 60_000);

  afterAll(async () => {
    for (const close of closers) close();
    await sim?.stop();
  });

  it("takes the cloud's device list, and pairs each device's live data and counters with its dongle's", () => {
    expect(source.inventoryFrom()).toBe("cloud");
    expect(inventory.evChargers).toHaveLength(1);
    expect(inventory.inverters.find((i) => i.serial === INVERTER)?.controllable).toBe(true);
    const names = resources.map((resource) => resource.name);
    expect(names).toEqual(
      expect.arrayContaining([
        `inverter.live ${INVERTER} (LAN or cloud)`,
        `inverter.counters ${INVERTER} (LAN or cloud)`,
        "ems EM2024E001 (LAN or cloud)",
        `inverter.events ${INVERTER} (LAN or cloud)`,
      ]),
    );
    // One resource per device's live data: a twin never also stands alone.
    expect(names.filter((name) => name.startsWith(`inverter.live ${INVERTER}`))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith("ems EM2024E001"))).toHaveLength(1);
    // An EMS child's own live data only the LAN has.
    expect(names.some((name) => /^inverter\.live SE2024G101 \(LAN 127\.0\.0\.1:\d+\)$/.test(name))).toBe(true);
    expect(source.choice.pathOf(INVERTER)).toBe("local");
  });

  it("is planned at the cloud's interval, and woken at poll.local while the device is on its dongle", () => {
    expect(live.periodMs).toBe(POLL.inverter);
    let woken = 0;
    const subscription = live.triggers?.subscribe(() => woken++);
    try {
      clock().advance(30_000);
      expect(woken).toBe(3);
      source.choice.use(INVERTER, "cloud", "for this test");
      clock().advance(30_000);
      expect(woken).toBe(3);
      source.choice.use(INVERTER, "local", "for this test");
      clock().advance(10_000);
      expect(woken).toBe(4);
    } finally {
      subscription?.unsubscribe();
    }
  });

  it("reads live data over the dongle alone while it answers", async () => {
    cloudCalls.length = 0;
    const result = await poll(live);
    expect(result.fetched).toMatchObject({ kind: "inverter.live", serial: INVERTER });
    expect(cloudCalls).toEqual([]);
  });

  it("retries a failed LAN poll over the cloud in the same poll, and moves the device to the cloud", async () => {
    await dongleFault(INVERTER, 10_000);
    cloudCalls.length = 0;
    const earlier = switches.length;
    try {
      const result = await poll(live);
      expect(result.fetched).toMatchObject({ kind: "inverter.live", serial: INVERTER });
      expect(cloudCalls).toEqual(["200 Get Latest System Data"]);
      expect(source.choice.pathOf(INVERTER)).toBe("cloud");
      expect(switches.slice(earlier)).toEqual([
        expect.objectContaining({
          from: "local",
          to: "cloud",
          why: expect.stringContaining("its dongle did not answer"),
        }),
      ]);
    } finally {
      await dongleFault(INVERTER, 0);
    }
  });

  it("switches once for a dongle that fails every other poll for 30 minutes, and goes back after 5 steady minutes", async () => {
    const moved = () => switches.filter((s) => s.serial === INVERTER && s.from !== undefined).length;
    const before = moved();
    for (let round = 0; round < 60; round++) {
      await dongleFault(INVERTER, round % 2 === 0 ? 10_000 : 0);
      const result = await poll(live);
      expect(result.fetched?.kind, `round ${round}`).toBe("inverter.live");
      clock().advance(30_000);
    }
    await dongleFault(INVERTER, 0);
    expect(moved()).toBe(before);
    expect(source.choice.pathOf(INVERTER)).toBe("cloud");
    for (let round = 0; round < 12 && source.choice.pathOf(INVERTER) === "cloud"; round++) {
      await poll(live);
      clock().advance(30_000);
    }
    expect(source.choice.pathOf(INVERTER)).toBe("local");
    expect(moved()).toBe(before + 1);
    expect(source.choice.states()[INVERTER]?.why).toMatch(/its dongle has answered every poll for 3\d\d s/);
  }, 60_000);

  it("on the cloud, asks its dongle at poll.local with no cloud request, and honours a 10 s failback within a LAN poll", async () => {
    const quick = build(10_000);
    const found = await settle(quick.discover());
    const planned = quick.resources(found, POLL, () => clock().now());
    const twin = named(planned, `inverter.live ${INVERTER} (LAN or cloud)`);
    const probe = planned.find((one) => one.name.startsWith(`dongle probe of inverter.live ${INVERTER} (LAN`));
    if (!probe?.triggers) throw new Error("no dongle probe for the inverter");
    // The probe is planned on no cloud budget: only its trigger wakes it.
    expect(probe.periodMs).toBeUndefined();
    expect(probe.devices).toEqual([]);
    await dongleFault(INVERTER, 10_000);
    await poll(twin);
    await dongleFault(INVERTER, 0);
    expect(quick.choice.pathOf(INVERTER)).toBe("cloud");
    let woken = 0;
    const subscription = probe.triggers.subscribe(() => woken++);
    cloudCalls.length = 0;
    const recovered = clock().now();
    try {
      for (let round = 0; round < 4 && quick.choice.pathOf(INVERTER) === "cloud"; round++) {
        clock().advance(10_000);
        expect(await poll(probe)).toEqual({});
      }
    } finally {
      subscription.unsubscribe();
    }
    expect(quick.choice.pathOf(INVERTER)).toBe("local");
    // Two answers 10 s apart: back within the failback and one LAN poll (the cloud's 30 s would be three times that).
    expect(clock().now() - recovered).toBeLessThan(25_000);
    expect(woken).toBeGreaterThanOrEqual(2);
    expect(cloudCalls).toEqual([]);
    expect(quick.choice.states()[INVERTER]?.why).toMatch(/its dongle has answered every poll for 1\d s/);
    // On the dongle the probe asks nothing, and is not woken.
    const woke = woken;
    clock().advance(10_000);
    expect(woken).toBe(woke);
  });

  it("on the cloud, takes the dongle's answer at once when the cloud refuses", async () => {
    // On the cloud again: a dongle that failed once.
    await dongleFault(INVERTER, 10_000);
    await poll(live);
    await dongleFault(INVERTER, 0);
    expect(source.choice.pathOf(INVERTER)).toBe("cloud");
    await sim.admin("/subscription", { active: false });
    try {
      const result = await poll(live);
      expect(result.fetched).toMatchObject({ kind: "inverter.live", serial: INVERTER });
      expect(source.choice.pathOf(INVERTER)).toBe("local");
      expect(source.choice.states()[INVERTER]?.why).toContain("the cloud did not answer");
    } finally {
      await sim.admin("/subscription", { active: true });
    }
  });

  it("reads a device's faults from its dongle while it is on the LAN and the cloud refuses; the EV charger's status fails", async () => {
    expect(source.choice.pathOf(INVERTER)).toBe("local");
    const events = named(resources, `inverter.events ${INVERTER} (LAN or cloud)`);
    const charger = resources.find((resource) => resource.name.startsWith("ev.status"));
    await sim.admin("/subscription", { active: false });
    try {
      expect((await poll(events)).fetched).toMatchObject({ kind: "inverter.events", serial: INVERTER, active: [] });
      await expect(poll(charger as Resource)).rejects.toThrow(/refused: the token is wrong or the account lacks/);
    } finally {
      await sim.admin("/subscription", { active: true });
    }
  });

  it("keeps the cloud's device list through a refresh the cloud refuses", async () => {
    await sim.admin("/subscription", { active: false });
    try {
      await expect(settle(source.discover({ previous: inventory }))).rejects.toThrow(/refused/);
      expect(source.inventoryFrom()).toBe("cloud");
    } finally {
      await sim.admin("/subscription", { active: true });
    }
  });

  it("takes the dongles' device list when the cloud refuses at discovery", async () => {
    await sim.admin("/subscription", { active: false });
    try {
      const alone = build();
      const found = await settle(alone.discover());
      expect(alone.inventoryFrom()).toBe("local");
      expect(found.inverters.map((i) => i.serial).sort()).toEqual(["SD2024G001", "SE2024G101", "SE2024G102"]);
      expect(found.evChargers).toEqual([]);
      expect(found.inverters.every((i) => !i.controllable)).toBe(true);
      // Once the cloud answers again, a refresh takes its list: the charger and the controls come back.
      await sim.admin("/subscription", { active: true });
      const again = await settle(alone.discover({ previous: found }));
      expect(alone.inventoryFrom()).toBe("cloud");
      expect(again.evChargers).toHaveLength(1);
      expect(again.account.id).not.toBe(found.account.id);
    } finally {
      await sim.admin("/subscription", { active: true });
    }
  });

  it("warns of a dongle whose device the cloud's account does not list, and leaves it unread", async () => {
    const other = await startTestSimulator({ speed: 0, start: MIDDAY, scenario: recentFleetScenario(1, MIDDAY) });
    try {
      const lines: string[] = [];
      const logger = createLogger("warn", { destination: { write: (line: string) => lines.push(line) > 0 } });
      const client = other.clientFor("owner", { clock: clock() });
      const local = localSource({
        dongles: sim.simulator.dongles.map((dongle) => ({
          host: "127.0.0.1",
          port: dongle.port,
          passive: false,
          gap_ms: SIM_GAP_MS,
        })),
        clock: clock(),
        timezone: "Europe/London",
      });
      closers.push(
        () => local.close(),
        () => client.close(),
      );
      const choice = new PathChoice({ clock: clock(), failbackMs: 300_000 });
      const mixed = autoSource({
        cloud: cloudSource(client),
        local,
        choice,
        logger,
        lan: { liveMs: 10_000, clock: clock() },
      });
      const found = await settle(mixed.discover());
      expect(found.inverters.map((i) => i.serial)).not.toContain(INVERTER);
      expect(lines.join("")).toContain(
        `a dongle under local: answers for ${INVERTER}, which the cloud's account does not list: it is not read`,
      );
      const names = mixed.resources(found, POLL, () => clock().now()).map((resource) => resource.name);
      expect(names.some((name) => name.includes(INVERTER))).toBe(false);
    } finally {
      await other.stop();
    }
  });
});
