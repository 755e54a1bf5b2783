import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";

const FIXTURES = new URL("../../fixtures/octopus/", import.meta.url);

interface RecordedBody {
  readonly count?: number;
  readonly next?: string | null;
  readonly previous?: string | null;
  readonly results: readonly unknown[];
}

/** A recorded body of test/fixtures/octopus/, as the API sent it. */
export function recorded(file: string): RecordedBody {
  return JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as RecordedBody;
}

/**
 * The Octopus products API on 127.0.0.1, serving recorded bodies by path. A body may be served
 * in pages of `pageSize` results, linked with `next` as the real API does.
 */
export class OctopusServer {
  readonly requests: string[] = [];
  /** When set, every request is answered with this HTTP status and no body. */
  failWith: number | undefined;
  private readonly routes = new Map<string, { body: RecordedBody; pageSize: number }>();
  private server: Server | undefined;
  private origin = "";

  /** The base URL to give the tariff (`base_url`). */
  get baseUrl(): string {
    return this.origin;
  }

  /** Serves `file` at /v1/products/<product>/electricity-tariffs/<code>/<list>/. */
  serve(
    product: string,
    code: string,
    list: "standard-unit-rates" | "day-unit-rates" | "night-unit-rates" | "standing-charges",
    file: string,
    pageSize = 1000,
  ): void {
    this.routes.set(`/v1/products/${product}/electricity-tariffs/${code}/${list}/`, { body: recorded(file), pageSize });
  }

  /** How many requests asked for a path containing `part`. */
  count(part: string): number {
    return this.requests.filter((url) => url.includes(part)).length;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", this.origin);
      this.requests.push(`${url.pathname}${url.search}`);
      const route = this.routes.get(url.pathname);
      if (this.failWith !== undefined || !route) {
        response.writeHead(this.failWith ?? 404, { "content-type": "application/json" });
        response.end(JSON.stringify({ detail: "No ElectricityTariff matches the given query." }));
        return;
      }
      const page = Number(url.searchParams.get("page") ?? "1");
      const { body, pageSize } = route;
      const results = body.results.slice((page - 1) * pageSize, page * pageSize);
      const more = page * pageSize < body.results.length;
      // The real API's links keep the request's other parameters.
      const link = (to: number): string => {
        const params = new URLSearchParams(url.searchParams);
        params.set("page", String(to));
        return `${this.origin}${url.pathname}?${params.toString()}`;
      };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          count: body.results.length,
          next: more ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results,
        }),
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
