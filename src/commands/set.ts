import type { ChangeRequest, SettingValue } from "../control/index.js";
import { cliGate, cloudClient, describeOutcome } from "../sources/cloud/index.js";
import { discoverInventory, type Inventory } from "../sources/index.js";
import { CHARGER_COMMANDS, type ChargerCommandId, isChargerCommandId, PathFailure } from "../vocabulary/index.js";
import { SET_USAGE } from "./set-usage.js";
import { cliLogger, openStoreOr, readConfig, requireCloud } from "./shared.js";

export interface SetOptions {
  /** Inverter serial, or EV charger uuid (or serial). */
  readonly device: string;
  /** A setting id, `preset` or `ev`. */
  readonly target: string;
  /** VALUE; IDENTIFIER JSON; or COMMAND [JSON]. */
  readonly args: readonly string[];
  readonly config?: string;
}

export { SET_USAGE };

type Change =
  | { readonly kind: "setting"; readonly settingId: number; readonly value: SettingValue }
  | { readonly kind: "preset"; readonly preset: string; readonly fields: Record<string, unknown> }
  | { readonly kind: "ev-command"; readonly command: ChargerCommandId; readonly request: Record<string, unknown> };

/**
 * `energy2mqtt set`: one change through the control gate, recorded in the store's audit log as
 * coming from the CLI. 0 ok, 1 the device refused or the change failed, 2 bad usage, an
 * unknown device or a value the device's rules refuse.
 */
export async function runSetCommand(
  options: SetOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const change = parseChange(options.target, options.args);
  if (typeof change === "string") {
    err.write(`${change}\n${SET_USAGE}\n`);
    return 2;
  }
  const config = readConfig(options.config, err);
  if (typeof config === "number") return config;
  const cloud = requireCloud(config, err, "set");
  if (typeof cloud === "number") return cloud;
  const { url, token } = cloud;
  const store = openStoreOr(config, err, "the audit log cannot be opened, so nothing was sent: ");
  if (typeof store === "number") return store;
  try {
    const client = cloudClient(config, url, token);
    const logger = cliLogger(config);
    let inventory: Inventory;
    try {
      inventory = await discoverInventory(client, { logger });
    } catch (error) {
      if (!(error instanceof PathFailure)) throw error;
      err.write(`${error.message}\n`);
      return error.kind === "unauthorised" || error.kind === "forbidden" ? 2 : 1;
    }
    const gate = cliGate(config, client, store, inventory, logger);
    const request = requestFor(options.device, change, inventory);
    const outcome = await gate.apply(request, { via: "cli", name: "energy2mqtt set" });
    let code = 0;
    if (outcome.ok) out.write(describeOutcome(outcome));
    else {
      err.write(describeOutcome(outcome));
      const refused = outcome.refused === true;
      if (refused && !knows(inventory, request)) err.write(`${accountDevices(inventory)}\n`);
      code = refused ? 2 : 1;
    }
    // A write whose answer is late still goes into the audit log before the store closes.
    await gate.idle();
    return code;
  } finally {
    store.close();
  }
}

function parseChange(target: string, args: readonly string[]): Change | string {
  const [first, second, ...rest] = args;
  if (target === "preset") {
    if (first === undefined || second === undefined || rest.length > 0)
      return "a preset change takes the preset's identifier and its fields as a JSON object";
    const fields = jsonObject(second);
    return typeof fields === "string" ? fields : { kind: "preset", preset: first, fields };
  }
  if (target === "ev") {
    if (first === undefined || rest.length > 0)
      return "an EV command takes the command and, when it has fields, a JSON object";
    if (!isChargerCommandId(first))
      return `unknown EV command "${first}"; known: ${Object.keys(CHARGER_COMMANDS).join(", ")}`;
    const request = second === undefined ? {} : jsonObject(second);
    return typeof request === "string" ? request : { kind: "ev-command", command: first, request };
  }
  if (!/^\d+$/.test(target)) return `"${target}" is not a setting id (a number), \`preset\` or \`ev\``;
  if (first === undefined || second !== undefined) return "a setting change takes exactly one value";
  return { kind: "setting", settingId: Number(target), value: parseValue(first) };
}

/** true/false as booleans and numbers as numbers; anything else (a time, a mode) stays text. */
function parseValue(text: string): SettingValue {
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function jsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `expected a JSON object such as {"enabled":true}, got ${text}`;
  return value as Record<string, unknown>;
}

/** The device as the account spells it, so that `sd2024g001` or a charger's serial also work. */
function requestFor(device: string, change: Change, inventory: Inventory): ChangeRequest {
  const wanted = device.toLowerCase();
  if (change.kind === "ev-command") {
    const charger = inventory.evChargers.find(
      (c) => c.uuid.toLowerCase() === wanted || c.serial.toLowerCase() === wanted,
    );
    return { ...change, uuid: charger?.uuid ?? device };
  }
  const serial = inventory.inverters.find((i) => i.serial.toLowerCase() === wanted)?.serial ?? device;
  return { ...change, serial };
}

function knows(inventory: Inventory, request: ChangeRequest): boolean {
  return request.kind === "ev-command"
    ? inventory.evChargers.some((c) => c.uuid === request.uuid)
    : inventory.inverters.some((i) => i.serial === request.serial);
}

function accountDevices(inventory: Inventory): string {
  const inverters = inventory.inverters.map((i) => i.serial).join(", ") || "none";
  const chargers = inventory.evChargers.map((c) => `${c.uuid} (${c.alias})`).join(", ") || "none";
  return `the account has inverters: ${inverters}; EV chargers: ${chargers}`;
}
