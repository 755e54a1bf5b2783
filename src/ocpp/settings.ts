import type { Config } from "../config/index.js";
import type { CentralSystemOptions } from "./types.js";

/** The configuration's `ocpp:` block, as the schema gives it. */
export type OcppConfig = Config["ocpp"];

/** What the configuration decides of a central system; the composition root adds the store, the clock and the logger. */
export type CentralSystemSettings = Omit<CentralSystemOptions, "sessions" | "clock" | "logger">;

/**
 * The central system's options from the `ocpp:` block. `readPem` reads tls.cert_file and
 * tls.key_file (the composition root resolves them against the configuration file's folder, as
 * it does mqtt.ca); it is called only when tls is set.
 */
export function centralSystemSettings(block: OcppConfig, readPem: (file: string) => string): CentralSystemSettings {
  return {
    host: block.host,
    port: block.port,
    chargePoints: block.charge_points.map((cp) => ({ id: cp.id, password: cp.password })),
    authorisation:
      block.authorisation.policy === "id_tags"
        ? { policy: "id_tags", idTags: [...block.authorisation.id_tags] }
        : { policy: "accept_all" },
    heartbeatSeconds: Math.round(block.heartbeat / 1000),
    ...(block.tls === undefined
      ? {}
      : { tls: { cert: readPem(block.tls.cert_file), key: readPem(block.tls.key_file) } }),
  };
}
