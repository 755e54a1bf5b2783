import { parseClock, wallClock } from "../../time/index.js";
import { DAY_NAMES } from "../file/schema-common.js";
import type { Zone } from "../file/tariff-schema.js";
import { type Rate, STEADY_PRICES, sampledRates, type Tariff } from "./tariff.js";

interface CompiledZone {
  readonly price: number;
  readonly from?: number;
  readonly to?: number;
  readonly days?: ReadonlySet<number>;
  readonly months?: ReadonlySet<number>;
}

/**
 * Time of use: a base price and zones over local hours, days and months. The last zone that
 * matches wins. Days and months are those of the instant itself, so "23:30-05:30" on [fri]
 * covers Friday's first five and a half hours and Friday's last half hour.
 */
export class ZonesTariff implements Tariff {
  readonly type = "zones";
  readonly refresh = STEADY_PRICES.refresh;
  readonly nextRefresh = STEADY_PRICES.nextRefresh;
  readonly status = STEADY_PRICES.status;
  private readonly zones: readonly CompiledZone[];

  constructor(
    private readonly price: number,
    zones: readonly Zone[],
    private readonly timeZone: string,
  ) {
    this.zones = zones.map((zone) => ({
      price: zone.price,
      ...(zone.hours ? { from: parseClock(zone.hours.slice(0, 5)), to: parseClock(zone.hours.slice(6)) } : {}),
      ...(zone.days ? { days: new Set(zone.days.map((day) => DAY_NAMES.indexOf(day))) } : {}),
      ...(zone.months ? { months: new Set(zone.months) } : {}),
    }));
  }

  priceAt(at: number): number {
    const wall = wallClock(at, this.timeZone);
    for (let index = this.zones.length - 1; index >= 0; index--) {
      const zone = this.zones[index] as CompiledZone;
      if (zone.days && !zone.days.has(wall.weekday)) continue;
      if (zone.months && !zone.months.has(wall.month)) continue;
      if (zone.from !== undefined && zone.to !== undefined && !inHours(wall.minutes, zone.from, zone.to)) continue;
      return zone.price;
    }
    return this.price;
  }

  rates(from: number, to: number): Rate[] {
    return sampledRates(from, to, (at) => ({ price: this.priceAt(at), estimated: false }));
  }
}

/** Local minutes within [from, to), where a range with to <= from crosses midnight. */
export function inHours(minutes: number, from: number, to: number): boolean {
  return from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}
