import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * ocpp-rpc, loaded the first time a central system or a simulated charge point needs it: it
 * builds the specification's schema validators as it loads, about a quarter of a second, which
 * a daemon without OCPP (and every test that only imports the daemon) would pay for nothing.
 */
export function ocppRpc(): typeof import("ocpp-rpc") {
  return require("ocpp-rpc") as typeof import("ocpp-rpc");
}
