import type { ControlCall, PathOutcome } from "./control-ports.js";

/**
 * An EV charger's commands in the daemon's own terms, for a path that carries them (OCPP; Modbus
 * where local control is enabled): what a charge is told, answered done / refused / open like an
 * inverter's changes (sources/control-ports.ts). The cloud keeps its own command set behind the
 * cloud-only port; the gate sends a command here when the charger's path carries it.
 */
export type ChargerCommand =
  | { readonly kind: "start" }
  | { readonly kind: "stop" }
  /** The most current the car may draw, A. */
  | { readonly kind: "current-limit"; readonly amps: number }
  | { readonly kind: "unlock" }
  | { readonly kind: "restart" };

/** A path's answer, with the path that gave it (OCPP when it does not say). */
export type ChargerAnswer = PathOutcome<undefined> & { readonly path?: "OCPP" | "Modbus" };

export interface ChargerControl {
  /** Whether the charger (by uuid) is on this path now (its charge point connected), for this kind of command when given. */
  carries(uuid: string, kind?: ChargerCommand["kind"]): boolean;
  command(uuid: string, command: ChargerCommand, call?: ControlCall): Promise<ChargerAnswer>;
}
