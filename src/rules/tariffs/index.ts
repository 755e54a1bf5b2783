import type { FallbackConfig, TariffConfig } from "../file/tariff-schema.js";
import { AgileTariff } from "./agile.js";
import { FixedTariff } from "./fixed.js";
import { OctopusTariff } from "./octopus-tariff.js";
import type { Tariff } from "./tariff.js";
import { ZonesTariff } from "./zones.js";

export { type AgileStatus, AgileTariff } from "./agile.js";
export { FixedTariff } from "./fixed.js";
export { OctopusCache } from "./octopus-cache.js";
export { OctopusTariff, octopusTariffCode } from "./octopus-tariff.js";
export type { Rate, Tariff, TariffStatus } from "./tariff.js";
export { inHours, ZonesTariff } from "./zones.js";

/** The tariff a configuration describes. An agile or octopus tariff starts empty: call its refresh(). */
export function createTariff(config: TariffConfig, timeZone: string): Tariff {
  switch (config.type) {
    case "fixed":
      return new FixedTariff(config.price);
    case "zones":
      return new ZonesTariff(config.price, config.zones, timeZone);
    case "agile":
      return new AgileTariff(config, timeZone, fallbackTariff(config.fallback, timeZone));
    case "octopus":
      return new OctopusTariff(config, timeZone, fallbackTariff(config.fallback, timeZone));
  }
}

function fallbackTariff(fallback: FallbackConfig | undefined, timeZone: string): Tariff | undefined {
  if (fallback === undefined) return undefined;
  if (typeof fallback === "number") return new FixedTariff(fallback);
  return fallback.zones ? new ZonesTariff(fallback.price, fallback.zones, timeZone) : new FixedTariff(fallback.price);
}
