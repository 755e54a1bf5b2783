import type { RemoteControlResult } from "../../src/cloud/index.js";
import { account } from "../../src/cloud/schemas/account.js";
import type { SettingValue } from "../../src/cloud/schemas/inverter-control.js";
import { systemData } from "../../src/cloud/schemas/inverter-data.js";
import type {
  DeviceControl,
  DeviceSource,
  Inventory,
  InverterDevice,
  PollConfig,
  Resource,
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
   * How the next write is answered: "done" with the value, or the service's -1 (timeout: it may
   * have applied, so only reading back can tell) after applying it anyway.
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
          account: account.parse({ id: 1, name: "in-memory", standard_timezone: "UTC" }),
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
              const data = systemData.parse({
                time: new Date(at).toISOString(),
                status: "NORMAL",
                solar: { power: 1200, arrays: [] },
                battery: { percent: house.soc, power: -300, temperature: 20 },
                grid: { power: 0 },
                consumption: { power: 900 },
              });
              return { fetched: { kind: "inverter.live", serial: FAKE_SERIAL, at, data } };
            },
          },
        ];
      },
    },
    control: {
      answerMs: 1_000,
      pathOf: () => "cloud",
      inverterControl: {
        async writeSetting(serial, settingId, value): Promise<RemoteControlResult<SettingValue>> {
          calls.writes.push({ serial, settingId, value });
          settings.set(settingId, Number(value));
          return house.answer === "done"
            ? { ok: true, value }
            : { ok: false, code: -1, reason: "the device did not respond before the timeout", mayHaveApplied: true };
        },
        async readSetting(serial, settingId): Promise<RemoteControlResult<SettingValue>> {
          calls.reads.push({ serial, settingId });
          return { ok: true, value: settings.get(settingId) ?? null };
        },
        presetValues: notOnThisPath("reading a preset"),
        modifyPreset: notOnThisPath("writing a preset"),
      },
      evChargers: {
        commandData: notOnThisPath("an EV charger's command data"),
        get: notOnThisPath("an EV charger"),
        sendCommand: notOnThisPath("an EV charger command"),
      },
      snapshots: {
        take: notOnThisPath("a snapshot"),
        restore: notOnThisPath("a snapshot"),
        delete: notOnThisPath("a snapshot"),
      },
      presetProfiles: {
        apply: notOnThisPath("a preset profile"),
        create: notOnThisPath("a preset profile"),
        update: notOnThisPath("a preset profile"),
        delete: notOnThisPath("a preset profile"),
      },
      notifications: { send: notOnThisPath("a notification") },
      smartDevices: { addData: notOnThisPath("a smart device's data") },
    },
  };
  return house;
}
