import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimClock } from "../clock.js";
import type { EvcLinks } from "../ev/links.js";
import type { LocalDongles } from "../local/dongles.js";
import { accountTypeAtLeast } from "../world/accounts.js";
import type { World } from "../world/world.js";
import { type AdminState, handleAdmin } from "./admin.js";
import { type Answer, notFound } from "./envelope.js";
import { RateLimiter, type RateWindowState } from "./rate-limiter.js";
import type { Route } from "./route.js";
import { RouteTable } from "./route-table.js";

export interface SimulatorServerOptions {
  readonly world: World;
  readonly clock: SimClock;
  readonly routes: readonly Route[];
  readonly requestsPerMinute: number;
  readonly host?: string;
  readonly port?: number;
  /** Serve the fault-injection API under /__admin (tests and demos only). */
  readonly admin?: boolean;
  /** The dongles the admin API may fault (`/__admin/dongles`). */
  readonly local?: LocalDongles;
  /** The EV chargers' local links the admin API may fault (`/__admin/ocpp`, `/__admin/ev-chargers/...`). */
  readonly evc?: EvcLinks;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly admin: AdminState;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_048_576;

export async function startServer(options: SimulatorServerOptions): Promise<RunningServer> {
  const table = new RouteTable(options.routes);
  const global = new RateLimiter(options.requestsPerMinute, 60_000);
  const custom = new Map<Route, RateLimiter>();
  /** Ends the waits of held requests, so that closing never waits for a slow answer. */
  const releases = new Set<() => void>();
  const admin: AdminState = {
    world: options.world,
    clock: options.clock,
    global,
    errorBurst: [],
    slow: undefined,
    held: [],
    ...(options.local ? { local: options.local } : {}),
    ...(options.evc ? { evc: options.evc } : {}),
    apiSubscription: { active: true, status: 401 },
  };

  const server: Server = createServer((req, res) => {
    readBody(req)
      .then(async (raw) => {
        const answer = await respond(req, raw);
        send(res, answer);
      })
      .catch((error: unknown) => {
        send(res, { status: 500, body: { message: `Server Error: ${(error as Error).message}` } });
      });
  });
  server.keepAliveTimeout = 65_000;

  async function respond(req: IncomingMessage, raw: string | undefined): Promise<Answer> {
    const url = new URL(req.url ?? "/", "http://simulator.local");
    const host = req.headers.host ?? "127.0.0.1";
    const publicUrl = new URL(`${url.pathname}${url.search}`, `http://${host}`);
    if (raw === undefined) return { status: 413, body: { message: "The request body is too large." } };
    const body = parseJson(raw);
    if (body === INVALID_JSON) return { status: 400, body: { message: "The request body is not valid JSON." } };
    if (options.admin !== false && url.pathname.startsWith("/__admin/")) {
      return handleAdmin(admin, req.method ?? "GET", url.pathname.slice("/__admin".length), body);
    }
    const slow = admin.slow;
    if (slow && slow.remaining > 0 && (slow.path === undefined || url.pathname.includes(slow.path))) {
      slow.remaining--;
      const entry = { method: req.method ?? "GET", path: url.pathname };
      admin.held.push(entry);
      await new Promise<void>((resolve) => {
        const release = (): void => {
          clearTimeout(timer);
          releases.delete(release);
          resolve();
        };
        const timer = setTimeout(release, slow.ms);
        releases.add(release);
      });
      admin.held.splice(admin.held.indexOf(entry), 1);
    }
    const token = bearer(req.headers.authorization);
    const actor = token === undefined ? undefined : options.world.actorByToken(token);
    if (!actor) {
      return withRate(global.hit(`anonymous:${req.socket.remoteAddress ?? ""}`), {
        status: 401,
        body: { message: "Unauthenticated." },
      });
    }
    if (!url.pathname.startsWith("/v1/")) return notFound();
    if (!admin.apiSubscription.active) {
      // As the service answers an account without the API subscription: the same as a wrong token.
      const status = admin.apiSubscription.status;
      return withRate(global.hit(actor.token), {
        status,
        body: { message: status === 401 ? "Unauthenticated." : "This action is unauthorized." },
      });
    }
    const match = table.match(req.method ?? "GET", url.pathname.slice(3));
    if (!match) return withRate(global.hit(actor.token), notFound(`The route ${url.pathname} could not be found.`));
    const { route, params } = match;

    const limiter = route.customLimit ? customLimiter(route) : global;
    const rate = limiter.hit(actor.token);
    if (!rate.allowed) {
      const retryAfter = limiter.retryAfterSeconds(rate);
      return withRate(rate, {
        status: 429,
        body: { message: "Too Many Attempts." },
        headers: { "retry-after": String(retryAfter) },
      });
    }
    const injected = admin.errorBurst.shift();
    if (injected !== undefined) return withRate(rate, { status: injected, body: { message: "Injected failure" } });
    return withRate(rate, authorise(route, actor, params, url, publicUrl, body));
  }

  function authorise(
    route: Route,
    actor: NonNullable<ReturnType<World["actorByToken"]>>,
    params: Record<string, string>,
    url: URL,
    publicUrl: URL,
    body: unknown,
  ): Answer {
    if (!actor.account.subscription) {
      return { status: 402, body: { message: "A premium subscription is required to use the API." } };
    }
    if (route.accountType && !accountTypeAtLeast(actor.account.type, route.accountType)) {
      return { status: 403, body: { message: `This endpoint needs an account of type ${route.accountType}.` } };
    }
    const missing = route.scopes.filter((scope) => !actor.scopes.has(scope));
    if (missing.length > 0) {
      return { status: 403, body: { message: `The token is missing the scope(s): ${missing.join(", ")}.` } };
    }
    return route.handle({
      world: options.world,
      actor,
      params,
      query: url.searchParams,
      body: body ?? {},
      url: publicUrl,
      now: options.clock.now(),
    });
  }

  function customLimiter(route: Route): RateLimiter {
    let limiter = custom.get(route);
    if (!limiter && route.customLimit) {
      limiter = new RateLimiter(route.customLimit.requests, route.customLimit.minutes * 60_000);
      custom.set(route, limiter);
    }
    return limiter ?? global;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}/v1`,
    port: address.port,
    admin,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of [...releases]) release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function withRate(rate: RateWindowState, answer: Answer): Answer {
  return {
    ...answer,
    headers: {
      ...answer.headers,
      "x-ratelimit-limit": String(rate.limit),
      "x-ratelimit-remaining": String(rate.remaining),
    },
  };
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match?.[1]?.trim();
}

const INVALID_JSON = Symbol("invalid JSON");

function parseJson(raw: string): unknown {
  if (raw.trim().length === 0) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return INVALID_JSON;
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, answer: Answer): void {
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}
