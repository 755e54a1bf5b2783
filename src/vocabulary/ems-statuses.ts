/*
 * An EMS's statuses in the device's own numbering, the same in its registers (IR 2045, 2042) and in
 * the cloud's EMS system data, under the names the daemon publishes (a Home Assistant enum's options).
 */

/** The plant's status. */
export const EMS_STATUS = {
  0: "WAITING",
  1: "NORMAL",
  2: "WARNING",
  3: "ERROR",
  4: "UPDATING",
  5: "BYPASS",
} as const satisfies Readonly<Record<number, string>>;

/** An inverter behind the EMS; 6 is not documented. */
export const EMS_INVERTER_STATUS = {
  0: "DISABLED",
  1: "WAITING",
  2: "ONLINE",
  3: "WARNING",
  4: "ERROR",
  5: "FLASH",
  7: "OFFLINE",
} as const satisfies Readonly<Record<number, string>>;

/** A meter behind the EMS. */
export const EMS_METER_STATUS = {
  0: "DISABLED",
  1: "ONLINE",
  2: "OFFLINE",
} as const satisfies Readonly<Record<number, string>>;

/** What a meter behind the EMS measures. */
export const EMS_METER_TYPE = {
  0: "GRID",
  1: "GENERATION",
  2: "LOAD",
  3: "OTHER",
} as const satisfies Readonly<Record<number, string>>;

/**
 * The name of a code in one of the tables above, or undefined for a code they do not list (the
 * device may add values; callers decide how to show them).
 */
export function emsCodeName<T extends Readonly<Record<number, string>>>(
  table: T,
  code: number | null | undefined,
): T[keyof T] | undefined {
  if (code === null || code === undefined || !Object.hasOwn(table, code)) return undefined;
  return table[code as keyof T];
}

/** Whether a name is one the table gives a code (a status the daemon can publish). */
export function isEmsName(table: Readonly<Record<number, string>>, name: unknown): name is string {
  return typeof name === "string" && Object.values(table).includes(name);
}
