import type { Battery } from "./model.js";

/**
 * What a kWh still stored at the horizon's end is worth: at least what exporting it would earn,
 * and typically the import it displaces in the dearer hours. Taken as the mean of the dearer half
 * of the horizon's last day's import prices (or the best export price, if higher), after discharge
 * losses, shaded by a tenth for what the forecasts do not know.
 */
export function terminalValue(
  importPrices: readonly number[],
  exportPrices: readonly number[],
  battery: Battery,
): number {
  const lastDay = importPrices.slice(-48);
  const sorted = [...lastDay].sort((a, b) => b - a);
  const dearer = sorted.slice(0, Math.max(1, Math.floor(sorted.length / 2)));
  const mean = dearer.reduce((sum, price) => sum + price, 0) / dearer.length;
  const bestExport = Math.max(0, ...exportPrices.slice(-48));
  return battery.dischargeEfficiency * Math.max(mean, bestExport) * 0.9;
}
