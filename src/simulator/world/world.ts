import { ChargerModel } from "../ev/index.js";
import { InverterModel, type InverterSpec } from "../house/index.js";
import { InverterControl } from "../inverter-control/index.js";
import { hash32, sequence } from "../random.js";
import type { Scenario, ScenarioAccount, ScenarioInverter } from "../scenario/schema.js";
import { utcMsOfLocal } from "../time.js";
import { type AccountRecord, type Actor, buildAccounts, buildActors, reachableAccounts } from "./accounts.js";

export interface InverterRecord {
  readonly serial: string;
  readonly account: AccountRecord;
  readonly deviceSerial: string;
  readonly deviceType: "WIFI" | "GPRS";
  readonly commissionMs: number;
  readonly source: ScenarioInverter;
  readonly model: InverterModel;
  readonly control: InverterControl;
  /** Set for a child inverter of an EMS plant. */
  readonly emsSerial?: string;
}

export interface EmsRecord {
  readonly serial: string;
  readonly account: AccountRecord;
  readonly commissionMs: number;
  readonly inverters: readonly InverterRecord[];
  readonly meterCount: number;
}

export interface ChargerRecord {
  readonly uuid: string;
  readonly account: AccountRecord;
  readonly model: ChargerModel;
}

export interface SmartDeviceRecord {
  readonly uuid: string;
  readonly account: AccountRecord;
  alias: string;
  readonly serialNumber: string;
  readonly otherData: Record<string, unknown>;
  readonly powerW: number;
  /** Points posted through the API, newest last. */
  readonly posted: { time: string; power: number }[];
  readonly createdMs: number;
}

export interface SnapshotRecord {
  readonly settings: Record<string, boolean | number | string>;
}

export interface PresetProfileRecord {
  readonly id: number;
  readonly inverterSerial: string;
  readonly preset: string;
  readonly name: string;
  readonly owner: string;
  readonly scope: string;
  data: Record<string, unknown>;
}

export interface SentNotification {
  readonly actor: string;
  readonly platforms: readonly string[];
  readonly title: string;
  readonly body: string;
  readonly icon: string;
  readonly at: number;
}

/**
 * Everything the simulated cloud knows: accounts, actors, devices and their models, and the
 * state that the API moves (snapshots, preset profiles, notifications, smart device data).
 * Models are advanced lazily, only when a request touches their device.
 */
export class World {
  readonly accounts: Map<string, AccountRecord>;
  readonly actors: Map<string, Actor>;
  readonly inverters = new Map<string, InverterRecord>();
  readonly ems = new Map<string, EmsRecord>();
  readonly chargers = new Map<string, ChargerRecord>();
  readonly smartDevices = new Map<string, SmartDeviceRecord>();
  /** Keyed by inverter serial, then owner actor name, then snapshot name. */
  readonly snapshots = new Map<string, Map<string, SnapshotRecord>>();
  readonly presetProfiles: PresetProfileRecord[] = [];
  readonly notifications: SentNotification[] = [];
  private nextProfileId = 1;

  constructor(
    readonly scenario: Scenario,
    readonly seed: number,
    readonly startMs: number,
  ) {
    this.accounts = buildAccounts(scenario);
    this.actors = buildActors(scenario, this.accounts, seed);
    for (const source of scenario.accounts) this.addDevices(source);
  }

  actorByToken(token: string): Actor | undefined {
    return this.actors.get(token);
  }

  /** Usernames whose devices `actor` may see: its own, and for engineers and companies their children's. */
  visibleAccounts(actor: Actor): Set<string> {
    return reachableAccounts(actor.account, this.accounts);
  }

  canSee(actor: Actor, account: AccountRecord): boolean {
    return this.visibleAccounts(actor).has(account.username);
  }

  /** The inverter, advanced to `now`, when the actor may see it. */
  inverter(serial: string, actor: Actor, now: number): InverterRecord | undefined {
    const record = this.inverters.get(serial);
    if (!record || !this.canSee(actor, record.account)) return undefined;
    record.model.advanceTo(now);
    return record;
  }

  charger(uuid: string, actor: Actor, now: number): ChargerRecord | undefined {
    const record = this.chargers.get(uuid);
    if (!record || !this.canSee(actor, record.account)) return undefined;
    record.model.advanceTo(now);
    return record;
  }

  snapshotsOf(serial: string, owner: string): Map<string, SnapshotRecord> {
    let byOwner = this.snapshots.get(`${serial}|${owner}`);
    if (!byOwner) {
      byOwner = new Map();
      this.snapshots.set(`${serial}|${owner}`, byOwner);
    }
    return byOwner;
  }

  addPresetProfile(profile: Omit<PresetProfileRecord, "id">): PresetProfileRecord {
    const record = { ...profile, id: this.nextProfileId++ };
    this.presetProfiles.push(record);
    return record;
  }

  private addDevices(source: ScenarioAccount): void {
    const account = this.accounts.get(source.username);
    if (!account) return;
    for (const device of source.devices) {
      this.addInverter(account, device.inverter, device.serial, device.type);
    }
    for (const ems of source.ems) {
      const inverters = ems.inverters.map((inverter) =>
        this.addInverter(account, inverter, ems.serial, "WIFI", ems.serial),
      );
      this.ems.set(ems.serial, {
        serial: ems.serial,
        account,
        commissionMs: this.dayMs(ems.commission_date),
        inverters,
        meterCount: ems.meters,
      });
    }
    for (const charger of source.ev_chargers) {
      const firstInverter = source.devices[0]?.inverter.serial;
      const model = new ChargerModel(
        {
          uuid: charger.uuid,
          serialNumber: charger.serial,
          type: "GIV-EVC-7KW",
          alias: charger.alias,
          commissionDate: this.dayMs(charger.commission_date),
          configurationMode: charger.configuration_mode,
          premium: account.subscription,
          maxCurrentA: charger.max_current_a,
          voltage: 230,
          phases: 1,
          car: { batteryKwh: charger.car_battery_kwh, maxCurrentA: 32 },
          idTags: [{ id: "04A2B3C4D5", alias: "Key fob" }],
          maximumIdTags: 10,
        },
        hash32(this.seed, charger.uuid),
        this.startMs,
        {
          surplusW: () => {
            const house = firstInverter ? this.inverters.get(firstInverter) : undefined;
            // Grid power is positive when exporting: that export is the surplus a charger could take.
            return house ? Math.max(0, house.model.gridPowerW()) : 0;
          },
        },
      );
      this.chargers.set(charger.uuid, { uuid: charger.uuid, account, model });
    }
    for (const smart of source.smart_devices) {
      this.smartDevices.set(smart.uuid, {
        uuid: smart.uuid,
        account,
        alias: smart.alias,
        serialNumber: `SD-${smart.uuid.slice(0, 8).toUpperCase()}`,
        otherData: { graph_color: "#3f51b5", hardware_id: smart.uuid.slice(0, 12), local_key: "0123456789abcdef" },
        powerW: smart.power_w,
        posted: [],
        createdMs: this.startMs - 90 * 86_400_000,
      });
    }
  }

  private addInverter(
    account: AccountRecord,
    source: ScenarioInverter,
    deviceSerial: string,
    deviceType: "WIFI" | "GPRS",
    emsSerial?: string,
  ): InverterRecord {
    const seed = hash32(this.seed, source.serial);
    const control = new InverterControl({ serial: source.serial, flags: source.flags, random: sequence(seed) });
    const spec: InverterSpec = {
      serial: source.serial,
      model: source.model,
      timezone: this.scenario.timezone,
      latitude: this.scenario.latitude,
      longitude: this.scenario.longitude,
      commissionDate: this.dayMs(source.commission_date),
      pvArrays: source.pv_kwp > 0 ? [{ kwp: source.pv_kwp, tiltDeg: 35, azimuthDeg: 180 }] : [],
      battery:
        source.battery_kwh > 0
          ? {
              capacityWh: source.battery_kwh * 1000,
              nominalVoltage: 51.2,
              maxChargeW: Math.min(3600, source.max_power_w),
              maxDischargeW: Math.min(3600, source.max_power_w),
              depthOfDischarge: 1,
            }
          : null,
      inverterMaxW: source.max_power_w,
      annualLoadKwh: source.annual_load_kwh,
      faultsPerMonth: source.faults_per_month,
    };
    const model = new InverterModel(spec, control, seed, this.startMs);
    const record: InverterRecord = {
      serial: source.serial,
      account,
      deviceSerial,
      deviceType,
      commissionMs: spec.commissionDate,
      source,
      model,
      control,
      ...(emsSerial ? { emsSerial } : {}),
    };
    this.inverters.set(source.serial, record);
    return record;
  }

  private dayMs(date: string): number {
    return utcMsOfLocal(date, "00:00", this.scenario.timezone);
  }
}
