import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { HistoryRecord } from "../../../src/store/index.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures/solar-forecasts");

/** A recorded body from test/fixtures/solar-forecasts/. */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

export interface Served {
  readonly url: string;
  /** Every request seen: its path with query, and its headers. */
  readonly requests: { readonly path: string; readonly headers: IncomingMessage["headers"] }[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 answering every request with what `answer` gives for its path. */
export async function serve(answer: (path: string) => { status: number; body: string }): Promise<Served> {
  const requests: { path: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    requests.push({ path, headers: request.headers });
    const { status, body } = answer(path);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Five-minute inverter points from `from` to `to`, with the solar and consumption (W) given per instant. */
export function inverterPoints(
  from: number,
  to: number,
  power: (at: number) => { readonly solar: number; readonly consumption: number },
): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (let at = from; at < to; at += 300_000) {
    const { solar, consumption } = power(at);
    out.push({
      kind: "inverter.point",
      device: "SD2024G001",
      at,
      key: "",
      data: {
        status: "NORMAL",
        power: {
          solar: { power: solar, arrays: [{ array: 1, voltage: 300, current: 1, power: solar }] },
          grid: { voltage: 240, current: 1, power: solar - consumption, frequency: 50 },
          battery: { percent: 50, power: 0, temperature: 20 },
          consumption: { power: consumption },
          inverter: { temperature: 30, power: 0, output_voltage: 240, output_frequency: 50, eps_power: 0 },
        },
        today: { solar: 0, consumption: 0 },
        total: { solar: 0, consumption: 0 },
        is_metered: true,
      },
    });
  }
  return out;
}
