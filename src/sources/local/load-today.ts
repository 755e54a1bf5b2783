import { LOAD_BALANCE_INPUTS, type State } from "../../local/index.js";

/**
 * Keeps one inverter's balanced consumption today (src/local/registers/load-balance.ts) from
 * running backwards within a day, as Home Assistant takes any fall of a `total_increasing` sensor
 * for a meter reset. The balance of five rounded counters can dip by a tenth or two while they all
 * rise; then the last figure stands (GivTCP holds its Load_Energy_Today_kWh the same way). When
 * any of the counters falls, the day has turned over and the new figure is taken as it is.
 */
export class TodayLoadGuard {
  private last: { readonly load: number; readonly inputs: readonly number[] } | undefined;

  hold(state: State): State {
    const load = state.today_consumption_energy;
    const inputs = LOAD_BALANCE_INPUTS.map((key) => state[key]);
    if (typeof load !== "number" || !inputs.every((value): value is number => typeof value === "number")) return state;
    const previous = this.last;
    const sameDay = previous !== undefined && inputs.every((value, index) => value >= (previous.inputs[index] ?? 0));
    const held = previous !== undefined && sameDay && load < previous.load ? previous.load : load;
    this.last = { load: held, inputs };
    return held === load ? state : { ...state, today_consumption_energy: held };
  }
}
