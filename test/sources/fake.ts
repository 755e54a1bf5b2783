import {
  type DeviceControl,
  type DeviceSource,
  type HeldValue,
  type Inventory,
  type InverterDevice,
  type PathOutcome,
  type PollConfig,
  type Resource,
  withoutCloud,
} from "../../src/sources/index.js";
import { deviceIdOf } from "../../src/vocabulary/device-id.js";

/**
 * A house reached by no cloud at all: one inverter held in memory, behind the same two ports the
 * cloud implements. It proves a second path (the dongle on the LAN next) fits without touching
 * telemetry, the history or the control gate.
 */
export const FAKE_SERIAL = "FK0000A001";
/** Battery reserve: a setting the fake inverter lists, 4 to 100 %. */
export const RESERVE = 71;

/** What the fake was asked, to assert that one command is one write and at most one read-back. */
export interface FakeCalls {
  discoveries: number;
  polls: number;
  writes: { readonly serial: string; readonly settingId: number; readonly value: unknown }[];
  reads: { readonly serial: string; readonly settingId: number }[];
}

export interface FakeHouse {
  readonly source: DeviceSource;
  readonly control: DeviceControl;
  readonly calls: FakeCalls;
  /** The inverter's settings as it holds them. */
  readonly settings: Map<number, number>;
  /** The battery's charge the next poll reports. */
  soc: number;
  /**
   * How the next write is answered: done with the value, or open (a timeout: it may have applied,
   * so only reading back can tell) after applying it anyway.
   */
  answer: "done" | "timeout";
}

const notOnThisPath = (what: string) => async (): Promise<never> => {
  throw new Error(`${what} is not on the in-memory path`);
};

function inverter(): InverterDevice {
  return {
    kind: "inverter",
    serial: FAKE_SERIAL,
    model: "in-memory",
    dongleSerial: "FKDONGLE01",
    firmware: {},
    batteries: [],
    meters: [],
    flags: ["is-controllable"],
    controllable: true,
    settings: [
      {
        id: RESERVE,
        name: "Battery Reserve % Limit",
        validation: "Value must be between 4 and 100",
        validation_rules: ["between:4,100"],
      },
    ],
    presets: [],
  };
}

export function fakeHouse(): FakeHouse {
  const calls: FakeCalls = { discoveries: 0, polls: 0, writes: [], reads: [] };
  const settings = new Map<number, number>([[RESERVE, 10]]);
  const house: FakeHouse = {
    calls,
    settings,
    soc: 55,
    answer: "done",
    source: {
      budget: { windowMs: 60_000, liveAllowance: () => 1_000, limit: () => 1_000, expectLive: () => undefined },
      async discover() {
        calls.discoveries++;
        return {
          account: { id: 1, name: "in-memory" },
          timezone: "UTC",
          inverters: [inverter()],
          ems: [],
          evChargers: [],
          smartDevices: [],
          sites: [],
        };
      },
      resources(_inventory: Inventory, poll: PollConfig, now: () => number): Resource[] {
        return [
          {
            name: `inverter.live ${FAKE_SERIAL}`,
            devices: [deviceIdOf(FAKE_SERIAL)],
            periodMs: poll.inverter,
            async poll() {
              calls.polls++;
              const at = now();
              // The daemon's own words: its state keys, units and signs (src/vocabulary/).
              const values = {
                status: "Normal",
                solar_power: 1200,
                battery_soc: house.soc,
                battery_power: -300,
                battery_temperature: 20,
                grid_power: 0,
                consumption_power: 900,
              };
              return { fetched: { kind: "inverter.live", serial: FAKE_SERIAL, at, measuredAt: at, values } };
            },
          },
        ];
      },
    },
    control: {
      answerMs: 1_000,
      pathOf: () => "cloud",
      inverters: {
        async writeSetting(serial, settingId, value): Promise<PathOutcome<HeldValue>> {
          calls.writes.push({ serial, settingId, value });
          settings.set(settingId, Number(value));
          return house.answer === "done"
            ? { outcome: "done", value }
            : { outcome: "open", reason: "the device did not respond before the timeout" };
        },
        async readSetting(serial, settingId): Promise<PathOutcome<HeldValue>> {
          calls.reads.push({ serial, settingId });
          return { outcome: "done", value: settings.get(settingId) ?? null };
        },
        readPreset: notOnThisPath("reading a preset"),
        applyPreset: notOnThisPath("writing a preset"),
      },
      // What only the cloud has: this path has none of it.
      cloudOnly: withoutCloud((what) => new Error(`${what} are not on the in-memory path`)),
    },
  };
  return house;
}
