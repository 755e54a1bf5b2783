import type { World } from "./world.js";

/** Load a house's meter sees on top of the house's own (the admin API's fault). */
export interface HouseLoad {
  /** A fixed load, W: an appliance left on. */
  readonly extraW: number;
  /** Whether the account's EV chargers draw through this house's meter, as a charger on the house's supply does. */
  readonly evChargers: boolean;
}

const NONE: HouseLoad = { extraW: 0, evChargers: false };
const loads = new WeakMap<World, Map<string, HouseLoad>>();

/** The load set on an inverter's house; none until set. */
export function houseLoadOf(world: World, serial: string): HouseLoad {
  return loads.get(world)?.get(serial.toUpperCase()) ?? NONE;
}

/**
 * Puts a load on an inverter's house from the model's time on; false when the serial is no
 * inverter's (an EMS's or a gateway's data is its inverters' sum: the load is a house's).
 */
export function setHouseLoad(world: World, serial: string, load: HouseLoad): boolean {
  const house = world.inverters.get(serial);
  if (!house) return false;
  const byWorld = loads.get(world) ?? new Map<string, HouseLoad>();
  byWorld.set(serial.toUpperCase(), load);
  loads.set(world, byWorld);
  const chargers = () =>
    [...world.chargers.values()]
      .filter((charger) => charger.account === house.account)
      .reduce((sum, charger) => sum + charger.model.local().reading().powerW, 0);
  house.model.setExtraLoad(() => load.extraW + (load.evChargers ? chargers() : 0));
  return true;
}
