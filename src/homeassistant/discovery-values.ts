import type { DeviceDetails } from "./entities/index.js";
import type { Topics } from "./topics.js";

export interface Origin {
  readonly name: string;
  readonly sw_version: string;
  readonly support_url: string;
}

export interface DiscoveryOptions {
  readonly topics: Topics;
  readonly origin: Origin;
  /** Layout learnt from readings (solar arrays, EMS meters, EV modes), by deviceId(). */
  readonly details?: (deviceId: string) => DeviceDetails | undefined;
  /** `givtcp` adds, beside each inverter's own entities, those GivTCP names (homeassistant.naming). */
  readonly naming?: "own" | "givtcp";
}

export interface DiscoveryMessage {
  readonly topic: string;
  readonly payload: Record<string, unknown>;
}

/** Published retained, an empty payload removes the entity from Home Assistant. */
export interface RemovalMessage {
  readonly topic: string;
  readonly payload: "";
}

export const identifier = (id: string): string => `energy2mqtt_${id}`;

/**
 * The key's value, or none (Home Assistant's unknown, without a template warning) should the
 * key ever be missing: states are published complete, this is the second line of defence.
 */
export const valueTemplate = (key: string): string => `{{ value_json.${key} | default(none) }}`;

/**
 * Available while the state carries a value for the key: a key with no value (its registers did
 * not answer, or nothing was read yet) makes the entity unavailable rather than unknown or 0.
 */
export const keyAvailabilityTemplate = (key: string): string =>
  `{{ 'online' if value_json.${key} is defined and value_json.${key} is not none else 'offline' }}`;
