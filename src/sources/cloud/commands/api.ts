import { z } from "zod";
import {
  AuthenticationError,
  CloudError,
  CloudHttp,
  defineEndpoint,
  type EndpointInfo,
  ForbiddenError,
  findEndpoint,
  type HttpMethod,
  type QueryInput,
  type RawResponse,
  statusError,
} from "../../../cloud/index.js";
// biome-ignore lint/style/noRestrictedImports: past commands/'s face on purpose: it loads each command only when it runs, and these are its commands.
import { cliLogger, openStoreOr } from "../../../commands/shared.js";
import { type Config, loadConfig } from "../../../config/index.js";
import type { Requester } from "../../../control/index.js";
import { systemClock } from "../../../time/index.js";
import { discoverInventory, type Inventory } from "../../index.js";
import { auditedRaw, type Json, RAW_BYPASSES } from "./api-raw.js";
import { GATED_WRITES, type GateWrite, gateWriteOf } from "./api-writes.js";
import { cliGate, describeOutcome } from "./cli-gate.js";
import { cloudClient } from "./client.js";

export interface ApiCommandOptions {
  readonly method: string;
  readonly path: string;
  readonly data?: string;
  readonly config?: string;
  readonly include?: boolean;
  /** Send a write as is, past the control gate (still audited). */
  readonly raw?: boolean;
}

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

const REQUESTER: Requester = { via: "cli", name: "energy2mqtt api" };

/**
 * `energy2mqtt api METHOD PATH [--data JSON] [--raw]`: reads are sent as they are; a write goes
 * through the control gate (validated, read back, audited), or with --raw as is, audited as raw.
 * 0 on a 2xx answer (or a change applied), 2 on bad usage, a change refused or a token the cloud
 * refuses (401, 403), 1 otherwise.
 */
export async function runApiCommand(
  options: ApiCommandOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const method = options.method.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) {
    err.write(`method must be one of ${METHODS.join(", ")}, got "${options.method}"\n`);
    return 2;
  }
  if (!options.path.startsWith("/")) {
    err.write(`path must start with /, e.g. /account (got "${options.path}")\n`);
    return 2;
  }
  let body: Json | undefined;
  if (options.data !== undefined) {
    try {
      body = z.json().parse(JSON.parse(options.data));
    } catch (error) {
      err.write(`--data is not valid JSON: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const { config } = loadConfig(options.config || process.env.ENERGY2MQTT_CONFIG);
  if (!config.cloud.url || !config.cloud.token) {
    err.write(
      "no cloud configured: set cloud.url and cloud.token in the configuration file (-c FILE), or ENERGY2MQTT_CLOUD_URL and ENERGY2MQTT_CLOUD_TOKEN\n",
    );
    return 2;
  }
  const http = new CloudHttp({
    baseUrl: config.cloud.url,
    token: config.cloud.token,
    context: config.cloud.context,
    requestsPerMinute: config.cloud.requests_per_minute,
    timeoutMs: config.cloud.timeout,
  });
  const [rawPath = "/", rawQuery = ""] = options.path.replace(/^\/v1(?=\/)/, "").split("?", 2);
  const endpoint =
    findEndpoint(method, rawPath) ?? defineEndpoint({ name: "API call", method, path: rawPath, scopes: [] });
  const send = () =>
    http.raw({ ...endpoint, path: rawPath }, { query: parseQuery(rawQuery), body }, { priority: "command" });
  try {
    // Reads (GETs, and the POSTs that only read: Read Setting, Multi-Control Read, energy flows).
    if (endpoint.idempotent) return answer(await send(), endpoint, options, out, err);
    const write = { method, path: rawPath, query: rawQuery, body };
    if (options.raw) {
      const store = openStoreOr(config, err, "the audit log cannot be opened, so nothing was sent: ");
      if (typeof store === "number") return store;
      try {
        err.write(`${RAW_BYPASSES}; recorded in the audit log as raw:${method} ${rawPath}\n`);
        const response = await auditedRaw(store.audit, write, () => systemClock.now(), send, rawOutcome);
        return answer(response, endpoint, options, out, err);
      } finally {
        store.close();
      }
    }
    const gated = gateWriteOf(endpoint, rawPath, body);
    if (!gated) {
      err.write(
        `energy2mqtt api: ${method} ${rawPath} is a write the control gate does not take (it takes ${GATED_WRITES.join("; ")}); nothing was sent. To send it as is, without the gate's validation and read-back, add --raw (it is still recorded in the audit log)\n`,
      );
      return 2;
    }
    if (gated.kind === "invalid") {
      err.write(`energy2mqtt api: ${method} ${rawPath}: ${gated.problem}; nothing was sent\n`);
      return 2;
    }
    if (rawQuery !== "") {
      err.write(
        `energy2mqtt api: a write through the control gate takes no query (got ?${rawQuery}); leave it out, or add --raw to send it as is\n`,
      );
      return 2;
    }
    return await throughGate(config, gated, out, err);
  } catch (error) {
    if (error instanceof CloudError) {
      err.write(`${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  }
}

const remoteAnswer = z.object({
  data: z.object({ success: z.boolean().optional(), message: z.string().optional() }),
});

/** A raw write's row: its HTTP status, and the device's own success: false when the answer has one. */
function rawOutcome(response: RawResponse): { ok: boolean; code: number; message: string } {
  const said = remoteAnswer.safeParse(response.body);
  const refused = said.success && said.data.data.success === false;
  const ok = response.status >= 200 && response.status < 300 && !refused;
  const message = said.success && said.data.data.message ? `: ${said.data.data.message}` : "";
  return {
    ok,
    code: response.status,
    message: `sent raw (not validated, not read back): HTTP ${response.status}${message}`,
  };
}

/** Prints a cloud answer's body; 0 for a 2xx, else what its status means. */
function answer(
  response: RawResponse,
  endpoint: EndpointInfo,
  options: ApiCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  if (options.include) {
    const rate = `${response.headers["x-ratelimit-remaining"] ?? "?"}/${response.headers["x-ratelimit-limit"] ?? "?"}`;
    err.write(`HTTP ${response.status} (${endpoint.name}); rate limit remaining ${rate}\n`);
  }
  out.write(`${JSON.stringify(response.body ?? null, null, 2)}\n`);
  if (response.status >= 200 && response.status < 300) return 0;
  const failure = statusError(endpoint, response);
  err.write(`energy2mqtt api: HTTP ${response.status}: ${failure.message}\n`);
  return exitCodeOf(failure);
}

/** A known write as a change request (or device action) to the gate, audited as the CLI's. */
async function throughGate(
  config: Config,
  write: Exclude<GateWrite, { kind: "invalid" }>,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const { url = "", token = "" } = config.cloud;
  const store = openStoreOr(config, err, "the audit log cannot be opened, so nothing was sent: ");
  if (typeof store === "number") return store;
  try {
    const client = cloudClient(config, url, token);
    const logger = cliLogger(config);
    const inventory: Inventory = await discoverInventory(client, { logger });
    const gate = cliGate(config, client, store, inventory, logger);
    try {
      if (write.kind === "change") {
        const outcome = await gate.apply(write.request, REQUESTER);
        (outcome.ok ? out : err).write(describeOutcome(outcome));
        return outcome.ok ? 0 : outcome.refused ? 2 : 1;
      }
      const outcome = await gate.act(write.action, REQUESTER);
      if (!outcome.ok) {
        err.write(`${outcome.message}\n`);
        return outcome.refused ? 2 : 1;
      }
      out.write(`${outcome.message}\n`);
      if (outcome.data !== undefined) out.write(`${JSON.stringify(outcome.data, null, 2)}\n`);
      return 0;
    } finally {
      // A write whose answer is late still goes into the audit log before the store closes.
      await gate.idle();
    }
  } finally {
    store.close();
  }
}

/** A token the cloud rejects (401, or 403 for a scope it lacks) is 2, as for check, set and archive; the rest 1. */
function exitCodeOf(error: CloudError): number {
  return error instanceof AuthenticationError || error instanceof ForbiddenError ? 2 : 1;
}

/** `a[]=1&a[]=2&b=3` back into the client's query form, so it is sent encoded the same way. */
function parseQuery(text: string): QueryInput {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key.endsWith("[]")) {
      const name = key.slice(0, -2);
      const current = out[name];
      out[name] = Array.isArray(current) ? [...current, value] : [value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
