import { z } from "zod";
import { ChainError, ScenarioError, startSimulator } from "../simulator/index.js";
import { isoInstant } from "../time/index.js";
import { writeOptionErrors } from "./option-errors.js";

const optionsSchema = z.object({
  host: z.string().min(1).default("127.0.0.1"),
  port: z.coerce.number().int().min(0).max(65_535).default(8787),
  speed: z.coerce.number().min(0).max(100_000).default(1),
  seed: z.coerce.number().int().default(1),
  scenario: z.string().min(1).default("demo"),
  requestsPerMinute: z.coerce.number().int().min(1).optional(),
  /** Simulated time at start-up: the house at noon, whatever the hour it is shown. */
  start: isoInstant.optional(),
  /** The first dongle's port (each dongle on its own port from there); 0: free ports; left out: no dongles. */
  localPort: z.coerce.number().int().min(0).max(65_535).optional(),
  json: z.boolean().default(false),
});

export type SimulateOptions = z.input<typeof optionsSchema>;

/** `energy2mqtt simulate`: serves until SIGINT or SIGTERM. */
export async function runSimulateCommand(
  raw: SimulateOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    writeOptionErrors(err, parsed.error);
    return 2;
  }
  const options = parsed.data;
  let simulator: Awaited<ReturnType<typeof startSimulator>>;
  try {
    simulator = await startSimulator({
      host: options.host,
      port: options.port,
      speed: options.speed,
      seed: options.seed,
      scenario: options.scenario,
      ...(options.requestsPerMinute ? { requestsPerMinute: options.requestsPerMinute } : {}),
      ...(options.start !== undefined ? { start: options.start } : {}),
      ...(options.localPort === undefined ? {} : { localPort: options.localPort }),
    });
  } catch (error) {
    if (error instanceof ScenarioError) {
      err.write(`${error.message}\n`);
      return 2;
    }
    if ((error as { code?: unknown }).code === "EADDRINUSE") {
      const local = options.localPort !== undefined && options.localPort > 0;
      err.write(
        local
          ? `port ${options.port}, or one of the dongles' ports from ${options.localPort} on, is in use: pick others with --port and --local-port, or 0 for free ones\n`
          : `port ${options.port} is in use: pick another with --port, or --port 0 for a free one\n`,
      );
      return 1;
    }
    if (error instanceof ChainError) {
      err.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.json) {
    const dongles = simulator.dongles.map((dongle) => ({
      dongle_serial: dongle.dongleSerial,
      device_serial: dongle.deviceSerial,
      kind: dongle.kind,
      model: dongle.model,
      host: dongle.host,
      port: dongle.port,
    }));
    out.write(
      `${JSON.stringify({ url: simulator.url, tokens: simulator.tokens, ...(options.localPort === undefined ? {} : { dongles }) })}\n`,
    );
  } else {
    out.write(`energy2mqtt simulator (scenario ${options.scenario}, seed ${options.seed}, speed ${options.speed}x)\n`);
    out.write(`base URL: ${simulator.url}\n`);
    for (const [actor, token] of Object.entries(simulator.tokens)) out.write(`token ${actor.padEnd(9)} ${token}\n`);
    for (const dongle of simulator.dongles) {
      out.write(
        `dongle ${dongle.dongleSerial} ${dongle.kind.padEnd(8)} ${dongle.deviceSerial} (${dongle.model}) on ${dongle.host}:${dongle.port}\n`,
      );
    }
    // The token goes in the environment, never on a command line (where `ps` and the shell's
    // history keep it), as the README asks.
    out.write(
      `try:\n  export ENERGY2MQTT_CLOUD_URL=${simulator.url}\n  export ENERGY2MQTT_CLOUD_TOKEN=<the owner's token above>\n  npx energy2mqtt api GET /account\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await simulator.stop();
  return 0;
}
