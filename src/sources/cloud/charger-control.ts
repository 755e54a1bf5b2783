import type { z } from "zod";
import type { CloudClient, EV_COMMANDS, EvCommandData, EvCommandResult } from "../../cloud/index.js";
import type {
  ChargerCommandArgs,
  ChargerCommandId,
  ChargerHeld,
  ChargerReadings,
  ReadableChargerCommand,
} from "../../vocabulary/index.js";
import type { ChargerAnswer, CloudChargerCommands } from "../charger-ports.js";

/** The body the cloud takes for a command. */
type EvCommandRequest<C extends keyof typeof EV_COMMANDS> = z.input<(typeof EV_COMMANDS)[C]["request"]>;

/** The arguments as they are: the daemon names a command's fields as the cloud's request body does. */
const asSent = <T>(args: T): T => args;

/**
 * Each command's arguments as the cloud's request body. Every entry is the same object, but the
 * table is typed both ways, so the build fails the day a command or a field of the two parts.
 */
const REQUESTS: { readonly [C in ChargerCommandId]: (args: ChargerCommandArgs<C>) => EvCommandRequest<C> } = {
  "start-charge": asSent,
  "stop-charge": asSent,
  "adjust-charge-power-limit": asSent,
  "set-plug-and-go": asSent,
  "set-session-energy-limit": asSent,
  "set-schedule": asSent,
  "unlock-connector": asSent,
  "delete-charging-profile": asSent,
  "change-mode": asSent,
  "restart-charger": asSent,
  "change-randomised-delay-duration": asSent,
  "add-id-tags": asSent,
  "delete-id-tags": asSent,
  "rename-id-tag": asSent,
  "installation-mode": asSent,
  "setup-version": asSent,
  "set-active-schedule": asSent,
  "set-max-import-capacity": asSent,
  "enable-front-panel-led": asSent,
  "configure-inverter-control": asSent,
  "perform-factory-reset": asSent,
  "configuration-mode": asSent,
  "enable-local-control": asSent,
  "read-cp-voltage-and-duty-cycle": asSent,
  "adjust-cp-voltage-range": asSent,
  "adjust-suspended-state-wait-timeout": asSent,
};

/** Command data the reference leaves undescribed: some chargers answer the value itself, some `{value}`. */
function held(data: unknown): ChargerHeld {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { value: data };
  return { value: "value" in data ? data.value : undefined };
}

/** Get Command Data's answer as what the command's control holds. */
const READINGS: {
  readonly [C in ReadableChargerCommand]: (data: EvCommandData<C>) => ChargerReadings[C];
} = {
  "change-mode": (data) => data,
  "adjust-charge-power-limit": (data) => data,
  "set-plug-and-go": (data) => data,
  "set-session-energy-limit": (data) => data,
  "enable-front-panel-led": held,
  "set-max-import-capacity": held,
  "change-randomised-delay-duration": () => null,
};

/** The charger's refusal in words: the code's meaning and number, and the charger's own message. */
function reasonOf(failure: Extract<EvCommandResult, { ok: false }>): string {
  const reason = failure.code === undefined ? failure.reason : `${failure.reason} (code ${failure.code})`;
  return failure.message && !failure.reason.includes(failure.message) ? `${reason}: ${failure.message}` : reason;
}

/** A command's answer as the gate's: a code that may have applied (-1, -4, a server's -5, none) leaves it open. */
function answerOf(result: EvCommandResult): ChargerAnswer {
  if (result.ok) return { outcome: "done", value: undefined, code: result.code };
  return {
    outcome: result.mayHaveApplied ? "open" : "refused",
    reason: reasonOf(result),
    ...(result.code === undefined ? {} : { code: result.code }),
  };
}

/** The cloud's EV Chargers section as the daemon's charger commands. */
export function cloudChargerCommands(client: Pick<CloudClient, "evChargers">): CloudChargerCommands {
  return {
    send: async (uuid, command, args, call) =>
      answerOf(await client.evChargers.sendCommand(uuid, command, REQUESTS[command](args), call)),
    read: async (uuid, command, call) => READINGS[command](await client.evChargers.commandData(uuid, command, call)),
    status: async (uuid, call) => (await client.evChargers.get(uuid, call)).status,
  };
}
