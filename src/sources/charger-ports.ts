import type { ControlCall, PathOutcome } from "./control-ports.js";

/**
 * An EV charger's commands in the daemon's own terms, for a path that carries them (OCPP now;
 * Modbus where local control is enabled): what a charge is told, answered done / refused / open
 * like an inverter's changes (sources/control-ports.ts). The cloud keeps its own command set
 * behind the cloud-only port; the gate sends a command here when the charger's path carries it.
 */
export type ChargerCommand =
  | { readonly kind: "start" }
  | { readonly kind: "stop" }
  /** The most current the car may draw, A. */
  | { readonly kind: "current-limit"; readonly amps: number }
  | { readonly kind: "unlock" }
  /** A soft restart: the charger ends its session cleanly first. */
  | { readonly kind: "restart" }
  /** The whole charger in service (operative) or out of it; taking it out while it charges waits for the session's end. */
  | { readonly kind: "availability"; readonly operative: boolean }
  /** The charger asked to send one of its messages now (its status, its meter, ...). */
  | { readonly kind: "trigger"; readonly message: ChargerMessage };

/** The messages a charger can be asked to send now (OCPP 1.6's TriggerMessage, those the daemon reads). */
export const CHARGER_MESSAGES = ["StatusNotification", "MeterValues", "Heartbeat", "BootNotification"] as const;
export type ChargerMessage = (typeof CHARGER_MESSAGES)[number];

/**
 * What a charger's own path knows of it without asking the cloud: what reading back and a
 * restore need (the rules' promise to restore, the import guard's current to lower from).
 */
export interface ChargerReads {
  /** Whether the charger (by uuid) is on this path now: its charge point connected. */
  carries(uuid: string): boolean;
  /** The connector's status as the charger last said it (Preparing, Charging, ...); undefined when not said. */
  status(uuid: string): string | undefined;
  /**
   * The current limit in force, A, as this path set it (OCPP has no way to read a limit back):
   * the running session's, else the one for every session; undefined when this path set none.
   */
  currentLimit(uuid: string): number | undefined;
}

export interface ChargerControl extends ChargerReads {
  command(uuid: string, command: ChargerCommand, call?: ControlCall): Promise<PathOutcome<undefined>>;
}
