import type {
  ChangeOutcome,
  ChangeRequest,
  DeviceAction,
  DeviceActionOutcome,
  DeviceReads,
} from "../../control/index.js";
import type { RulesGate } from "../../rules/engine/index.js";
import { InverterControl, listingOf, type SettingValue } from "../../simulator/inverter-control/index.js";
import { FULL_POWER_FLAG } from "../../simulator/inverter-control/presets/timed.js";
import type { Inventory } from "../../sources/index.js";
import type { NotReplayedKind } from "./report.js";

/** The replay's one inverter and charger (the house's battery is one battery, whatever the rules call it). */
export const REPLAY_INVERTER = "BACKTEST01";
export const REPLAY_CHARGER = "00000000-0000-4000-8000-backtest0001";

/**
 * The devices a rules replay acts on: the engine's gate and reads answered by the simulator's
 * model of a Gen3 hybrid's settings and presets, one with full-power-discharge-in-eco-mode (a timed
 * export leaves Eco mode as it is; without the flag it switches Eco off, and a window's restore of
 * the timed-export preset does not switch it on again) (InverterControl: the presets' mapping onto
 * settings, the listing's rules), so a rule's change lands in the settings the inverter would
 * hold, and its restore reads them back. Snapshots are taken and put back on the model. Charger
 * commands and notifications have nothing to act on: they answer done and are counted per rule
 * as not replayed.
 */
export class ReplayDevices {
  readonly inverter = new InverterControl({ serial: REPLAY_INVERTER, flags: [FULL_POWER_FLAG], random: () => 0 });
  private readonly snapshots = new Map<string, Record<string, SettingValue>>();
  private readonly chargerModes = new Map<string, unknown>();
  /** Per rule, the kinds of its actions that were sent but not replayed. */
  readonly notReplayed = new Map<string, Set<NotReplayedKind>>();
  /** Per rule, the changes that reached the inverter. */
  readonly applied = new Map<string, number>();
  private readonly listed: Inventory;

  constructor(timeZone: string, batteryCapacityKwh: number) {
    this.listed = {
      account: { id: 0, name: "backtest" },
      timezone: timeZone,
      inverters: [
        {
          kind: "inverter",
          serial: REPLAY_INVERTER,
          model: "backtest",
          dongleSerial: "",
          firmware: {},
          batteryCapacityKwh,
          batteries: [],
          meters: [],
          flags: ["is-controllable", FULL_POWER_FLAG],
          controllable: true,
          ...listingOf(this.inverter),
        },
      ],
      ems: [],
      evChargers: [
        {
          kind: "ev_charger",
          uuid: REPLAY_CHARGER,
          serial: "backtest",
          alias: "backtest",
          type: "",
          commands: [],
        },
      ],
      smartDevices: [],
      sites: [],
    };
  }

  /** Whether the timed-export preset holds the DC discharge now (its slots export at full power). */
  exporting(): boolean {
    return this.inverter.presetValues("timed-export")?.enabled === true;
  }

  inventory(): Inventory {
    return this.listed;
  }

  readonly gate: RulesGate = {
    apply: async (request, requester) => this.apply(request, requester.name ?? ""),
    act: async (action, requester) => this.act(action, requester.name ?? ""),
  };

  readonly reads: DeviceReads = {
    presetValues: async (_serial, preset) => this.inverter.presetValues(preset) ?? {},
    setting: async (_serial, id) => {
      const read = this.inverter.read(id);
      return read.success ? (read.value as SettingValue) : undefined;
    },
    chargerMode: async (uuid) => this.chargerModes.get(uuid) ?? "Eco",
    chargerStatus: async () => "Available",
    chargerPowerLimit: async () => ({ value: 32, unit: "A", min: 6, max: 32 }),
  };

  private apply(request: ChangeRequest, rule: string): ChangeOutcome {
    if (request.kind === "ev-command") {
      if (request.command === "change-mode") this.chargerModes.set(request.uuid, request.request.mode);
      this.skip(rule, "charger commands");
      return { ok: true, verified: false, skipped: false, message: "not replayed: the backtest has no charger" };
    }
    const answer =
      request.kind === "setting"
        ? this.settingAnswer(request.settingId, request.value)
        : this.presetAnswer(request.preset, request.fields);
    if (answer.ok) this.applied.set(rule, (this.applied.get(rule) ?? 0) + 1);
    return { ...answer, verified: answer.ok, skipped: false };
  }

  private settingAnswer(id: number, value: SettingValue): { ok: boolean; message: string } {
    const answer = this.inverter.write(id, value);
    return { ok: answer.success, message: answer.message };
  }

  private presetAnswer(preset: string, fields: Readonly<Record<string, unknown>>): { ok: boolean; message: string } {
    const result = this.inverter.applyPreset(preset, fields);
    if (result.kind === "unknown") return { ok: false, message: `no preset ${preset}` };
    if (result.kind === "invalid")
      return { ok: false, message: Object.values(result.errors).flat().join("; ") || `preset ${preset} refused` };
    return { ok: result.success, message: result.message };
  }

  private act(action: DeviceAction, rule: string): DeviceActionOutcome {
    if (action.kind === "snapshot") {
      if (action.op === "take") this.snapshots.set(action.name, this.inverter.captureSettings());
      const saved = this.snapshots.get(action.name);
      if (action.op === "restore") {
        if (!saved) return { ok: false, message: `no snapshot ${action.name}` };
        this.inverter.restoreSettings(saved);
      }
      if (action.op === "delete") this.snapshots.delete(action.name);
      return { ok: true, message: `snapshot ${action.name}: ${action.op}` };
    }
    this.skip(rule, action.kind === "notification" ? "notifications" : "charger commands");
    return { ok: true, message: "not replayed" };
  }

  private skip(rule: string, kind: NotReplayedKind): void {
    const kinds = this.notReplayed.get(rule) ?? new Set<NotReplayedKind>();
    kinds.add(kind);
    this.notReplayed.set(rule, kinds);
  }
}
