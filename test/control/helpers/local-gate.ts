import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestEvent } from "../../../src/cloud/http.js";
import {
  type ChangeOutcome,
  type ChangeRequest,
  ControlGate,
  type Requester,
  WriteBudget,
} from "../../../src/control/index.js";
import { createLogger, type LogEvent, LogFeed } from "../../../src/log/log.js";
import { SimClock } from "../../../src/simulator/clock.js";
import type { DeviceControl, DevicePath, InverterDevice } from "../../../src/sources/index.js";
import { cloudControl, localControl, localSource, withoutCloud } from "../../../src/sources/index.js";
import { openStore, type Store } from "../../../src/store/index.js";
import type { SettingDescriptor } from "../../../src/vocabulary/index.js";
import { SIM_GAP_MS, startTestSimulator, TEST_START } from "../../helpers/simulator.js";
import { inverterDevice } from "./devices.js";

export const INVERTER = "SD2024G001";
export const WRITE = "Modify Setting";
export const READ = "Read Setting";
export const HOUSE_ZONE = "Europe/London";

/** Stands in for a device's snapshots on the LAN path: the cloud's must never be asked for one. */
const noCloudSnapshots = (control: DeviceControl): DeviceControl["cloudOnly"] => ({
  ...control.cloudOnly,
  snapshots: withoutCloud(() => new Error("the cloud's snapshots were asked for a device changed over the LAN"))
    .snapshots,
});

export interface LocalGateOptions {
  /** control.write_budget for the gate. */
  readonly budget?: number;
  /**
   * The "local" path is the real one: the simulator's dongle over TCP through localControl
   * (otherwise the cloud's control stands in for it, so tests can count its requests).
   */
  readonly lan?: boolean;
  /** The simulator's built-in scenario and the inverter in it the gate controls: demo's SD2024G001 by default. */
  readonly house?: { readonly scenario: string; readonly serial: string };
}

/** Routes the inverter's controls by the path in force, as source: auto does. */
function routed(cloud: DeviceControl, lan: DeviceControl, path: () => DevicePath): DeviceControl {
  const by = (): DeviceControl => (path() === "local" ? lan : cloud);
  return {
    ...cloud,
    inverters: {
      readSetting: (...args) => by().inverters.readSetting(...args),
      readPreset: (...args) => by().inverters.readPreset(...args),
      writeSetting: (...args) => by().inverters.writeSetting(...args),
      applyPreset: (...args) => by().inverters.applyPreset(...args),
      carries: (...args) => by().inverters.carries?.(...args),
    },
    cloudOnly: noCloudSnapshots(cloud),
    answerMs: Math.max(cloud.answerMs, lan.answerMs),
    pathOf: path,
  };
}

/**
 * A gate whose device's changes go "over the LAN": the simulator's cloud control, wrapped with
 * pathOf local and snapshots that throw, until the LAN control is merged. Its clock is the
 * simulator's pinned one; its store a real SQLite file that `restart()` opens again with a new
 * gate, as a restarted daemon would. Every request it sends is counted; warnings go to a feed,
 * the source of bridge/logging.
 */
export async function startLocalGate(options: LocalGateOptions = {}) {
  const { scenario, serial } = options.house ?? { scenario: "demo", serial: INVERTER };
  const sim = await startTestSimulator({
    scenario,
    speed: 0,
    start: TEST_START,
    ...(options.lan ? { localPort: 0, localResponseDelayMs: 0 } : {}),
  });
  const clock = sim.simulator.clock;
  const events: RequestEvent[] = [];
  const client = sim.clientFor("owner", { onRequest: (event) => events.push(event) });
  const checker = sim.clientFor("owner");
  // The path can change between two calls, as with `source: auto`.
  const path = { now: "local" as DevicePath };
  const lan = options.lan ? await lanControl(sim, serial) : undefined;
  const control: DeviceControl = lan
    ? routed(cloudControl(client), lan.control, () => path.now)
    : { ...cloudControl(client), cloudOnly: noCloudSnapshots(cloudControl(client)), pathOf: () => path.now };
  const inverter: InverterDevice = await inverterDevice(checker, serial);
  const dir = mkdtempSync(join(tmpdir(), "e2m-local-gate-"));
  const file = join(dir, "energy2mqtt.db");
  const warnings: LogEvent[] = [];
  const feed = new LogFeed();
  feed.subscribe((event) => warnings.push(event));
  const lines: string[] = [];
  const logger = createLogger("debug", {
    destination: { write: (line: string) => lines.push(line) },
    format: "json",
    feed,
  });

  const build = (store: Store) =>
    new ControlGate({
      clock,
      control,
      audit: store.audit,
      devices: { inverter: (asked) => (asked === serial ? inverter : undefined), charger: () => undefined },
      logger,
      writeBudget: new WriteBudget({
        counts: store.writeCounts,
        limit: options.budget ?? 100,
        clock,
        timeZone: () => HOUSE_ZONE,
        logger,
      }),
      localSnapshots: store.localSnapshots,
    });

  const state = { store: openStore(file), gate: undefined as unknown as ControlGate };
  state.gate = build(state.store);

  /** Applies a change; the outcome and the requests it sent. */
  async function apply(
    request: ChangeRequest,
    requester: Requester = { via: "cli", name: "test" },
  ): Promise<{ outcome: ChangeOutcome; requests: string[] }> {
    const mark = events.length;
    const outcome = await state.gate.apply(request, requester);
    return { outcome, requests: events.slice(mark).map((event) => event.endpoint) };
  }

  const setting = (settingId: number, value: number | string | boolean): ChangeRequest => ({
    kind: "setting",
    serial,
    settingId,
    value,
  });

  const deviceValue = async (settingId: number): Promise<unknown> => {
    const read = await checker.inverterControl.readSetting(serial, settingId);
    return read.ok ? read.value : `code ${read.code}`;
  };

  /** A setting as the path in force answers it now (with `lan: true`, the dongle); the reason when it cannot. */
  const lanValue = async (settingId: number): Promise<unknown> => {
    const read = await control.inverters.readSetting(serial, settingId);
    return read.outcome === "done" ? read.value : read.reason;
  };

  /**
   * The battery power limits (settings 72/73) listed up to what the LAN reaches: the helper lists
   * the cloud's (to 3600 W), while over the LAN a model's limits reach their register's watts.
   */
  const limitsInLanWatts = (chargeWatts: number): void => {
    const settings = inverter.settings as SettingDescriptor[];
    for (const [index, listed] of settings.entries())
      if (listed.id === 72 || listed.id === 73)
        settings[index] = { ...listed, validation_rules: [`between:0,${Math.max(3600, chargeWatts)}`] };
  };

  return {
    sim,
    clock,
    client,
    checker,
    serial,
    control,
    /** The simulator's dongle for the inverter, with `lan: true`. */
    lanDongle: lan?.dongle,
    inverter,
    events,
    warnings,
    /** Which path the device's changes go by from now on. */
    setPath(next: DevicePath) {
      path.now = next;
    },
    get gate() {
      return state.gate;
    },
    get store() {
      return state.store;
    },
    apply,
    setting,
    deviceValue,
    lanValue,
    limitsInLanWatts,
    /** A restarted daemon: the gate stopped and the store closed, then both opened again on the same file. */
    async restart() {
      await state.gate.stop();
      state.store.close();
      state.store = openStore(file);
      state.gate = build(state.store);
    },
    async stop() {
      await state.gate.stop();
      state.store.close();
      rmSync(dir, { recursive: true, force: true });
      lan?.close();
      await sim.stop();
    },
  };
}

/** The LAN control of the simulator's dongle for the inverter, its sessions on a clock that runs. */
async function lanControl(sim: Awaited<ReturnType<typeof startTestSimulator>>, serial: string) {
  const dongle = sim.simulator.local?.find(serial);
  if (!dongle) throw new Error(`no dongle for ${serial}`);
  const source = localSource({
    dongles: [{ host: "127.0.0.1", port: dongle.port, passive: false, gap_ms: SIM_GAP_MS }],
    clock: new SimClock({ start: TEST_START }),
    timezone: HOUSE_ZONE,
    writes: true,
  });
  await source.discover();
  return {
    dongle,
    control: localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 }),
    close: () => source.close(),
  };
}

export type LocalGate = Awaited<ReturnType<typeof startLocalGate>>;
