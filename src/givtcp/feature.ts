import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Config } from "../config/index.js";
import type { ChangeOutcome, ControlGate } from "../control/index.js";
import type { Logger } from "../log/log.js";
import { hasControls, type Inventory, type InverterDevice } from "../telemetry/index.js";
import type { StateValues } from "../vocabulary/index.js";
import { answerOf } from "./answer.js";
import { PRESET } from "./control-words.js";
import { readDataOf } from "./read-data.js";
import { ENDPOINTS } from "./writes.js";

type GivtcpRestConfig = NonNullable<Config["givtcp_rest"]>;

/** The largest body GivTCP's writes take; theirs are a few fields. */
const BODY_LIMIT = 4096;

export interface GivtcpRestFeature extends Feature {
  /** Each served inverter's base URL (http://host:port), by serial, once started. */
  readonly urls: Readonly<Record<string, string>>;
}

export interface GivtcpRestOptions {
  readonly config: GivtcpRestConfig;
  readonly gate: Pick<ControlGate, "apply" | "refuse" | "controlValues" | "remember" | "reads">;
  readonly inventory: () => Inventory;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly version: string;
}

/** The inverters GivTCP would serve: stand-alone and controllable (an EMS's inverters go through the EMS). */
function servedInverters(inventory: Inventory): InverterDevice[] {
  return inventory.inverters
    .filter((inverter) => hasControls(inverter) && inverter.emsSerial === undefined)
    .sort((a, b) => a.serial.localeCompare(b.serial));
}

/**
 * GivTCP's REST API for Predbat (docs/givtcp-rest.md): one port per inverter, GET readData and
 * runAll, and GivTCP's POST writes, each a change request to the control gate (source
 * `givtcp-rest`), answered in GivTCP's `{"result": ...}`.
 */
export function givtcpRestFeature(options: GivtcpRestOptions): GivtcpRestFeature {
  const { config, gate, bus, logger } = options;
  const name = "givtcp-rest";
  const live = new Map<string, StateValues>();
  const servers: Server[] = [];
  const urls: Record<string, string> = {};

  /**
   * Reads the presets readData shows again (reads only), as GivTCP answers from its last read of
   * the registers: what Predbat compares after a write is what the inverter holds, and the values
   * are fresh for the gate to spare a write of one that already holds.
   */
  const refresh = async (inverter: InverterDevice): Promise<void> => {
    const listed = new Set(inverter.presets.map((preset) => preset.identifier));
    for (const identifier of Object.values(PRESET)) {
      if (!listed.has(identifier)) continue;
      try {
        const values = await gate.reads.inverters.readPreset(inverter.serial, identifier);
        gate.remember({ kind: "preset", serial: inverter.serial, preset: identifier, values });
      } catch (error) {
        logger.warn(
          { err: error, serial: inverter.serial, preset: identifier },
          "GivTCP REST: a preset could not be read",
        );
      }
    }
  };

  const readData = async (serial: string): Promise<Record<string, unknown>> => {
    const inverter = servedInverters(options.inventory()).find((one) => one.serial === serial);
    if (!inverter) return { Result: `Error, inverter ${serial} is not one energy2mqtt serves` };
    await refresh(inverter);
    return readDataOf({
      inverter,
      live: live.get(serial),
      controls: gate.controlValues(serial),
      version: options.version,
    });
  };

  const write = async (
    serial: string,
    endpointName: string,
    body: unknown,
  ): Promise<{ status: number; answer: unknown }> => {
    const endpoint = ENDPOINTS[endpointName];
    if (!endpoint)
      return { status: 404, answer: { result: `Error: ${endpointName} is not a GivTCP write energy2mqtt takes` } };
    const requester = { via: "givtcp-rest", name: endpointName } as const;
    const refuse = (reason: string) =>
      gate.refuse(
        {
          targetKind: "inverter",
          target: serial,
          action: `givtcp:${endpointName}`,
          request: { body: capped(body) },
          reason,
        },
        requester,
      );
    const parsed = endpoint.body.safeParse(body);
    if (!parsed.success) {
      const reason = `${endpointName} takes ${fieldsOf(parsed.error)}`;
      refuse(reason);
      return { status: 400, answer: { result: `Error: ${reason}` } };
    }
    const plan = endpoint.plan(parsed.data, serial, gate.controlValues(serial));
    if ("refused" in plan) {
      refuse(plan.refused);
      return { status: 200, answer: { result: plan.refused } };
    }
    const outcomes: ChangeOutcome[] = [];
    for (const request of plan.requests) {
      const outcome = await gate.apply(request, requester);
      outcomes.push(outcome);
      if (!outcome.ok) break;
    }
    return { status: 200, answer: answerOf(plan, outcomes) };
  };

  const serve =
    (serial: string) =>
    (request: IncomingMessage, response: ServerResponse): void => {
      const path = new URL(request.url ?? "/", "http://givtcp").pathname.replace(/^\//, "");
      const handled =
        request.method === "GET" && (path === "readData" || path === "runAll" || path === "getCache")
          ? readData(serial).then((answer) => ({ status: 200, answer }))
          : request.method === "POST"
            ? readBody(request).then((body) =>
                body === undefined
                  ? {
                      status: 400,
                      answer: { result: 'Error: the body is not JSON: send a JSON object such as {"state":"enable"}' },
                    }
                  : write(serial, path, body),
              )
            : Promise.resolve({ status: 404, answer: { result: `Error: ${request.method} /${path} is not served` } });
      handled
        .then(({ status, answer }) => reply(response, status, answer))
        .catch((error: unknown) => {
          logger.error({ err: error, path }, "GivTCP REST: a request failed");
          reply(response, 500, { result: `Error: ${(error as Error).message}` });
        });
    };

  return {
    name,
    get urls() {
      return urls;
    },
    async start() {
      bus.on("fetched", name, (fetched) => {
        if (fetched.kind === "inverter.live") live.set(fetched.serial, fetched.values);
      });
      const inverters = servedInverters(options.inventory());
      for (const [index, inverter] of inverters.entries()) {
        const wanted = config.ports[inverter.serial] ?? (config.port === 0 ? 0 : config.port + index);
        const server = createServer(serve(inverter.serial));
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(wanted, config.host, () => resolve());
        });
        servers.push(server);
        const { port } = server.address() as AddressInfo;
        const host = config.host.includes(":") ? `[${config.host}]` : config.host;
        urls[inverter.serial] = `http://${host}:${port}`;
      }
      logger.info({ urls }, "GivTCP's REST API served");
    },
    async stop() {
      bus.removeAll(name);
      await Promise.all(
        servers.splice(0).map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

/** The body as JSON (GivTCP reads it whatever the content type); undefined when it is not JSON. */
async function readBody(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text === "" ? {} : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Each field the body lacks or has wrong, in words: `reservePercent (a number; got nothing)`. */
function fieldsOf(error: {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join(".") || "a JSON object"} (${issue.message})`)
    .join(", ");
}

function capped(body: unknown): string {
  const text = JSON.stringify(body) ?? "";
  return text.length <= 256 ? text : `${text.slice(0, 256)}…`;
}
