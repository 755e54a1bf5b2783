import { utcMsOfLocal } from "../../time/index.js";
import { ChargerModel } from "../ev/index.js";
import { InverterModel, type InverterSpec } from "../house/index.js";
import { InverterControl } from "../inverter-control/index.js";
import type { InverterData } from "../plant/inverter-data.js";
import { PlantModel } from "../plant/model.js";
import { hash32, sequence } from "../random.js";
import { KIND_PROFILES, nominalWh } from "../scenario/kinds.js";
import { ScenarioError } from "../scenario/load.js";
import type {
  Scenario,
  ScenarioAccount,
  ScenarioDevice,
  ScenarioEms,
  ScenarioGateway,
  ScenarioInverter,
} from "../scenario/schema.js";
import { type AccountRecord, type Actor, buildAccounts, buildActors, reachableAccounts } from "./accounts.js";
import { SerialMap } from "./serial-map.js";

/** A device the `/inverter/{serial}/...` endpoints serve: an inverter, an EMS or a gateway. */
export interface ServedInverter {
  readonly serial: string;
  readonly account: AccountRecord;
  readonly commissionMs: number;
  readonly model: InverterData;
  readonly control: InverterControl;
}

export interface InverterRecord extends ServedInverter {
  readonly deviceSerial: string;
  readonly deviceType: "WIFI" | "GPRS";
  /** The dongle's firmware: an integer, as the real service sends it, unless the scenario says otherwise. */
  readonly deviceFirmware: number | string;
  /** The scenario's entry for the inverter. */
  readonly entry: ScenarioInverter;
  readonly model: InverterModel;
  /** Set for a child inverter of an EMS plant. */
  readonly emsSerial?: string;
  /** Set for an All-In-One behind a gateway. */
  readonly gatewaySerial?: string;
}

/** An EMS or a gateway: served as an inverter, its data the sum of its children's. */
export interface PlantRecord extends ServedInverter {
  readonly kind: "ems" | "gateway";
  readonly inverters: readonly InverterRecord[];
  readonly meterCount: number;
  readonly modelName: string;
  readonly flags: readonly string[];
  readonly model: PlantModel;
}

export interface EmsRecord extends PlantRecord {
  readonly kind: "ems";
}

export interface GatewayRecord extends PlantRecord {
  readonly kind: "gateway";
  readonly dongle: ScenarioGateway["dongle"];
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
  /** Serials and UUIDs match without regard to case, as the real service matches them. */
  readonly inverters = new SerialMap<InverterRecord>();
  readonly ems = new SerialMap<EmsRecord>();
  readonly gateways = new SerialMap<GatewayRecord>();
  readonly chargers = new SerialMap<ChargerRecord>();
  readonly smartDevices = new SerialMap<SmartDeviceRecord>();
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
    for (const entry of scenario.accounts) this.addDevices(entry);
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

  /** The inverter, EMS or gateway with this serial (any case), advanced to `now`, when the actor may see it. */
  inverter(serial: string, actor: Actor, now: number): ServedInverter | undefined {
    const record = this.servedInverter(serial);
    if (!record || !this.canSee(actor, record.account)) return undefined;
    record.model.advanceTo(now);
    return record;
  }

  /** The inverter, EMS or gateway with this serial, in any case, whoever asks. */
  servedInverter(serial: string): ServedInverter | undefined {
    return this.inverters.get(serial) ?? this.ems.get(serial) ?? this.gateways.get(serial);
  }

  charger(uuid: string, actor: Actor, now: number): ChargerRecord | undefined {
    const record = this.chargers.get(uuid);
    if (!record || !this.canSee(actor, record.account)) return undefined;
    record.model.advanceTo(now);
    return record;
  }

  /** `serial` is the device's own spelling (record.serial), so every case finds the same snapshots. */
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

  private addDevices(entry: ScenarioAccount): void {
    const account = this.accounts.get(entry.username);
    if (!account) return;
    for (const device of entry.devices) this.addDevice(account, device);
    for (const ems of entry.ems) this.addEms(account, ems);
    for (const gateway of entry.gateways) this.addGateway(account, gateway);
    for (const charger of entry.ev_chargers) {
      const firstInverter = entry.devices[0]?.inverter.serial;
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
    for (const smart of entry.smart_devices) {
      this.smartDevices.set(smart.uuid, {
        uuid: smart.uuid,
        account,
        alias: smart.alias,
        serialNumber: `SD-${smart.uuid.slice(0, 8).toUpperCase()}`,
        otherData: smart.other_data ?? {
          graph_color: "#3f51b5",
          hardware_id: smart.uuid.slice(0, 12),
          local_key: "0123456789abcdef",
        },
        powerW: smart.power_w,
        posted: [],
        createdMs: this.startMs - 90 * 86_400_000,
      });
    }
  }

  private addDevice(
    account: AccountRecord,
    device: ScenarioDevice,
    parent: { emsSerial?: string; gatewaySerial?: string } = {},
  ): InverterRecord {
    return this.addInverter(account, device.inverter, {
      deviceSerial: device.serial,
      deviceType: device.type,
      deviceFirmware: device.firmware_version,
      ...parent,
    });
  }

  private addEms(account: AccountRecord, ems: ScenarioEms): void {
    const inverters = ems.inverters.map((inverter) =>
      this.addInverter(account, inverter, {
        deviceSerial: ems.serial,
        deviceType: "WIFI",
        deviceFirmware: 904,
        emsSerial: ems.serial,
      }),
    );
    const commissionMs = this.dayMs(ems.commission_date);
    this.ems.set(ems.serial, {
      kind: "ems",
      serial: ems.serial,
      account,
      commissionMs,
      inverters,
      meterCount: ems.meters,
      modelName: ems.model,
      flags: ems.flags,
      model: this.plantModel(inverters, commissionMs, true),
      control: this.plantControl(ems.serial, ems.flags, true),
    });
  }

  private addGateway(account: AccountRecord, gateway: ScenarioGateway): void {
    const inverters = gateway.devices.map((device) =>
      this.addDevice(account, device, { gatewaySerial: gateway.serial }),
    );
    const commissionMs = this.dayMs(gateway.commission_date);
    this.gateways.set(gateway.serial, {
      kind: "gateway",
      serial: gateway.serial,
      account,
      commissionMs,
      inverters,
      meterCount: gateway.meters,
      modelName: gateway.model,
      flags: gateway.flags,
      dongle: gateway.dongle,
      model: this.plantModel(inverters, commissionMs, false),
      control: this.plantControl(gateway.serial, gateway.flags),
    });
  }

  private plantModel(inverters: readonly InverterRecord[], commissionMs: number, counters: boolean): PlantModel {
    return new PlantModel(
      inverters.map((record) => ({
        model: record.model,
        capacityWh: nominalWh(record.entry.kind, record.entry.battery_kwh),
      })),
      { commissionMs, counters },
    );
  }

  /** An EMS's or gateway's own settings and presets; no evidence shows its listing, so it has the Gen3 one. */
  private plantControl(serial: string, flags: readonly string[], emsPlant = false): InverterControl {
    return new InverterControl({ serial, flags, emsPlant, random: sequence(hash32(this.seed, serial)) });
  }

  private addInverter(
    account: AccountRecord,
    entry: ScenarioInverter,
    device: {
      deviceSerial: string;
      deviceType: "WIFI" | "GPRS";
      deviceFirmware: number | string;
      emsSerial?: string;
      gatewaySerial?: string;
    },
  ): InverterRecord {
    const seed = hash32(this.seed, entry.serial);
    const control = new InverterControl({ serial: entry.serial, flags: entry.flags, random: sequence(seed) });
    for (const [id, value] of Object.entries(entry.settings ?? {})) {
      const answer = control.write(Number(id), value);
      if (!answer.success) throw new ScenarioError(`inverter ${entry.serial}: setting ${id}: ${answer.message}`);
    }
    const profile = KIND_PROFILES[entry.kind];
    const rateW = Math.min(profile.maxBatteryRateW, entry.max_power_w);
    const spec: InverterSpec = {
      serial: entry.serial,
      model: entry.model,
      timezone: this.scenario.timezone,
      latitude: this.scenario.latitude,
      longitude: this.scenario.longitude,
      commissionDate: this.dayMs(entry.commission_date),
      pvArrays: entry.pv_kwp > 0 ? [{ kwp: entry.pv_kwp, tiltDeg: 35, azimuthDeg: 180 }] : [],
      pvStrings: profile.pvStrings,
      battery:
        entry.battery_kwh > 0
          ? {
              capacityWh: nominalWh(entry.kind, entry.battery_kwh),
              nominalVoltage: profile.battery.nominalVoltage,
              maxChargeW: rateW,
              maxDischargeW: rateW,
              depthOfDischarge: profile.battery.depthOfDischarge,
            }
          : null,
      inverterMaxW: entry.max_power_w,
      phases: entry.phases,
      annualLoadKwh: entry.annual_load_kwh,
      faultsPerMonth: entry.faults_per_month,
    };
    const model = new InverterModel(spec, control, seed, this.startMs);
    const record: InverterRecord = {
      serial: entry.serial,
      account,
      commissionMs: spec.commissionDate,
      entry,
      model,
      control,
      ...device,
    };
    this.inverters.set(entry.serial, record);
    return record;
  }

  private dayMs(date: string): number {
    return utcMsOfLocal(date, "00:00", this.scenario.timezone);
  }
}
