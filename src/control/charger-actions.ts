import type { ChargerMessage } from "../sources/index.js";

/**
 * What only a charger's own path (its charge point on the daemon's OCPP central system) can be
 * told, beyond the EV commands the cloud also carries: in or out of service, a message asked for,
 * and the two a person must confirm, a (soft, never hard) reset and unlocking the connector.
 * `confirmed: true` is in the type, so that no caller can send either without saying so.
 */
export type ChargerAction =
  | { readonly op: "availability"; readonly available: boolean }
  | { readonly op: "trigger"; readonly message: ChargerMessage }
  | { readonly op: "reset"; readonly confirmed: true }
  | { readonly op: "unlock"; readonly confirmed: true };

/**
 * Why an EV command the cloud takes as it is must not go over OCPP that way: a restart or an
 * unlock needs a person's confirmation there (the bridge's charger/reset and charger/unlock),
 * and OCPP's reset is only ever soft. Undefined for every other command.
 */
export function unconfirmedOverOcpp(
  command: string,
): { readonly kind: "restart" | "unlock"; readonly why: string } | undefined {
  if (command === "restart-charger")
    return {
      kind: "restart",
      why: 'over OCPP a restart is a soft reset a person confirms: publish {"uuid": "…", "confirm": true} to bridge/request/charger/reset',
    };
  if (command === "unlock-connector")
    return {
      kind: "unlock",
      why: 'over OCPP unlocking the connector needs a person\'s confirmation: publish {"uuid": "…", "confirm": true} to bridge/request/charger/unlock',
    };
  return undefined;
}
