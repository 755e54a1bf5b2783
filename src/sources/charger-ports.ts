import type {
  ChargerCommandArgs,
  ChargerCommandId,
  ChargerReadings,
  ReadableChargerCommand,
} from "../vocabulary/index.js";
import type { ControlCall, PathOutcome } from "./control-ports.js";

/**
 * An EV charger's commands in the daemon's own terms, for a path that carries them (OCPP;
 * Modbus where local control is enabled): what a charge is told, answered done / refused / open
 * like an inverter's changes (sources/control-ports.ts). The cloud carries every command the
 * daemon names (CloudChargerCommands below); the gate sends a command here when the charger's
 * path carries it.
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
  /** Whether the charger (by uuid) is on this path now (its charge point connected), for this kind of command when given. */
  carries(uuid: string, kind?: ChargerCommand["kind"]): boolean;
  /** The connector's status as the charger last said it (Preparing, Charging, ...); undefined when not said. */
  status(uuid: string): string | undefined;
  /**
   * The current limit in force, A, as this path set it or last read it (OCPP has no way to read a
   * limit back): the running session's, else the one for every session; undefined when not known.
   */
  currentLimit(uuid: string): number | undefined;
}

export interface ChargerControl extends ChargerReads {
  command(uuid: string, command: ChargerCommand, call?: ControlCall): Promise<ChargerAnswer>;
}

/**
 * How a charger command ended. `code` is the path's own number for the answer when it has one
 * (the cloud's command code, 0 when done), kept for the record like a refusal's; `path` is the
 * charger's own path that answered (OCPP when it does not say).
 */
export type ChargerAnswer = PathOutcome<undefined> & {
  readonly code?: number;
  readonly path?: "OCPP" | "Modbus";
};

/**
 * Every charger command by the daemon's id and arguments, and reading back what a command's
 * control holds: what only the cloud carries whole (a schedule, a mode, plug and go, a hard
 * reset, besides what OCPP carries too). Sending throws when the path fails before the charger
 * answers (the gate says why); reading throws when the value cannot be read.
 */
export interface CloudChargerCommands {
  send<C extends ChargerCommandId>(
    uuid: string,
    command: C,
    args: ChargerCommandArgs<C>,
    call?: ControlCall,
  ): Promise<ChargerAnswer>;
  read<C extends ReadableChargerCommand>(uuid: string, command: C, call?: ControlCall): Promise<ChargerReadings[C]>;
  /** The charger's status as OCPP names it (Charging, SuspendedEV, ...); null or undefined when not told. */
  status(uuid: string, call?: ControlCall): Promise<string | null | undefined>;
}

/** The reads of the cloud's charger commands: what reading back and a restore need, and nothing that sends. */
export type CloudChargerReads = Pick<CloudChargerCommands, "read" | "status">;
