import { isoSeconds } from "../../time/index.js";
import type { EnergyTotalsBody } from "../house/bodies.js";
import type { EnergyFlowQuery, InverterModel, InverterStatus } from "../house/index.js";
import type {
  DataPointBody,
  EnergyFlowBody,
  FaultEventBody,
  InverterData,
  MeterDataBody,
  SystemDataBody,
} from "./inverter-data.js";
import { type ChildPowers, plantPowerWire, powersOfDataPoint, powersOfSystemData, sumEnergyTotals } from "./totals.js";

export interface PlantChild {
  readonly model: InverterModel;
  /** Nominal battery capacity, Wh. */
  readonly capacityWh: number;
}

export interface PlantOptions {
  readonly commissionMs: number;
  /**
   * Whether the plant shows energy counters of its own. An EMS shows its children's sums; a
   * gateway shows none: its `today` and `total` sections are null (the real service sends null
   * where a device has nothing; its All-In-Ones keep the counters).
   */
  readonly counters: boolean;
}

/**
 * An EMS or a gateway as the inverter endpoints serve it: the plant's live values, counters, data
 * points and energy flows are its children's, added up, so they stay consistent with what each
 * child shows. It has no faults of its own.
 */
export class PlantModel implements InverterData {
  private nowMs = 0;
  private offlineSince: number | undefined;
  private readonly offlineSpans: [number, number][] = [];
  private lastHeard: { system: SystemDataBody; meter: MeterDataBody } | undefined;

  constructor(
    private readonly children: readonly PlantChild[],
    private readonly options: PlantOptions,
  ) {}

  advanceTo(ms: number): void {
    if (this.offlineSince !== undefined) this.lastHeard ??= this.heardNow();
    for (const child of this.children) child.model.advanceTo(ms);
    this.nowMs = Math.max(this.nowMs, ...this.children.map((child) => child.model.nowMs()));
  }

  status(): InverterStatus {
    if (this.offlineSince !== undefined) return "LOST";
    return this.nowMs < this.options.commissionMs ? "WAITING" : "NORMAL";
  }

  setOffline(offline: boolean): void {
    if (offline && this.offlineSince === undefined) {
      this.offlineSince = this.nowMs;
      this.lastHeard = this.heardNow();
    } else if (!offline && this.offlineSince !== undefined) {
      this.offlineSpans.push([this.offlineSince, this.nowMs]);
      this.offlineSince = undefined;
      this.lastHeard = undefined;
    }
  }

  systemDataLatest(): SystemDataBody {
    return this.offlineSince !== undefined ? this.heard().system : this.systemNow();
  }

  meterDataLatest(): MeterDataBody {
    return this.offlineSince !== undefined ? this.heard().meter : this.meterNow();
  }

  /** Every 5-minute instant at which at least one child reported, with the children that did. */
  dataPoints(date: string): DataPointBody[] {
    const byTime = new Map<string, { powers: ChildPowers[]; points: DataPointBody[] }>();
    for (const child of this.children) {
      for (const point of child.model.dataPoints(date)) {
        if (this.isSilent(Date.parse(point.time))) continue;
        const entry = byTime.get(point.time) ?? { powers: [], points: [] };
        entry.powers.push(powersOfDataPoint(point, child.capacityWh));
        entry.points.push(point);
        byTime.set(point.time, entry);
      }
    }
    return [...byTime.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([time, { powers, points }]) => {
        const wire = plantPowerWire(powers);
        return {
          time,
          status: "NORMAL",
          power: {
            solar: wire.solar,
            grid: wire.grid,
            battery: wire.battery,
            consumption: { power: wire.consumptionW },
            inverter: wire.inverter,
          },
          today: this.options.counters ? sumEnergyTotals(points.map((p) => p.today)) : null,
          total: this.options.counters ? sumEnergyTotals(points.map((p) => p.total)) : null,
          is_metered: true,
        };
      });
  }

  events(): FaultEventBody[] {
    return [];
  }

  /** The children's records for the same intervals, added up. */
  energyFlows(query: EnergyFlowQuery): EnergyFlowBody[] {
    const merged = new Map<string, { start: string; end: string; data: Map<string, number> }>();
    for (const child of this.children) {
      for (const record of child.model.energyFlows(query)) {
        const entry = merged.get(record.start_time) ?? {
          start: record.start_time,
          end: record.end_time,
          data: new Map<string, number>(),
        };
        for (const [type, kwh] of Object.entries(record.data)) entry.data.set(type, (entry.data.get(type) ?? 0) + kwh);
        merged.set(record.start_time, entry);
      }
    }
    return [...merged.values()]
      .sort((a, b) => a.start.localeCompare(b.start))
      .map((entry) => ({
        start_time: entry.start,
        end_time: entry.end,
        data: Object.fromEntries(
          [...entry.data.entries()]
            .sort(([a], [b]) => Number(a) - Number(b))
            .map(([type, kwh]) => [type, Math.round(kwh * 100) / 100]),
        ),
      }));
  }

  /** The plant's values now (on its LAN dongle), from its children's own, whether or not the cloud hears them. */
  liveSystemData(): SystemDataBody {
    return this.systemNow((model) => model.liveSystemData());
  }

  /**
   * The children's counters now, added up, whether or not the plant shows counters in the cloud
   * (a gateway keeps them in its own registers).
   */
  liveCounters(): { today: EnergyTotalsBody; total: EnergyTotalsBody } {
    const children = this.children.map((child) => child.model.liveMeterData());
    return {
      today: sumEnergyTotals(children.map((c) => c.today)),
      total: sumEnergyTotals(children.map((c) => c.total)),
    };
  }

  private systemNow(
    read: (model: InverterModel) => SystemDataBody = (model) => model.systemDataLatest(),
  ): SystemDataBody {
    const wire = plantPowerWire(this.children.map((child) => powersOfSystemData(read(child.model), child.capacityWh)));
    const status = this.status();
    return {
      time: isoSeconds(this.nowMs),
      status: status.charAt(0) + status.slice(1).toLowerCase(),
      solar: wire.solar,
      grid: wire.grid,
      battery: wire.battery,
      inverter: wire.inverter,
      consumption: wire.consumptionW,
    };
  }

  private meterNow(): MeterDataBody {
    const children = this.children.map((child) => child.model.meterDataLatest());
    return {
      time: isoSeconds(this.nowMs),
      today: this.options.counters ? sumEnergyTotals(children.map((c) => c.today)) : null,
      total: this.options.counters ? sumEnergyTotals(children.map((c) => c.total)) : null,
      is_metered: true,
    };
  }

  /** What the cloud last heard before the plant went offline. */
  private heard(): { system: SystemDataBody; meter: MeterDataBody } {
    this.lastHeard ??= this.heardNow();
    return this.lastHeard;
  }

  private heardNow(): { system: SystemDataBody; meter: MeterDataBody } {
    return { system: { ...this.systemNow(), status: "Lost" }, meter: this.meterNow() };
  }

  private isSilent(ms: number): boolean {
    if (this.offlineSince !== undefined && ms >= this.offlineSince) return true;
    return this.offlineSpans.some(([from, to]) => ms >= from && ms < to);
  }
}
