import { statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import type { Feature } from "../bus/feature.js";
import type { RuleEvent } from "../rules-runtime/index.js";
import { StateChanges } from "../telemetry/index.js";
import type { WebHealth } from "./api-types.js";
import { type Asset, defaultAssetsDir, indexFor, loadAssets } from "./assets.js";
import { spawnCli } from "./backtest-child.js";
import { BacktestJobs } from "./backtest-jobs.js";
import { presetKey } from "./battery-mode.js";
import { LiveState } from "./live.js";
import type { WebOptions } from "./options.js";
import { json, text } from "./respond.js";
import { handleApi } from "./routes.js";
import { checkHost, checkPeer, checkToken } from "./security.js";
import { EventStream } from "./sse.js";

export type { WebOptions };

/** Rule events kept for a page opened after they happened. */
const RECENT_RULE_EVENTS = 50;

export interface WebFeature extends Feature {
  /** http://host:port/ once started. */
  readonly url: string;
}

/** Counts what the cloud answered, for the Health page. */
export interface CloudTally {
  lastStatus: number | null;
  lastSuccess: number | null;
  requests: number;
  failures: number;
}

/**
 * The web page as a feature: it serves the built page, a JSON API and a live stream of the bus's
 * readings, availability, changes and rule events (server-sent events).
 */
export function webFeature(options: WebOptions): WebFeature {
  const { bus, config, logger } = options;
  const name = "web";
  // Who last changed each preset, for the battery mode's "why": a rule by its name, anyone else is the owner.
  const authors = new Map<string, { rule: string | null }>();
  const live = new LiveState(options.inventory, {
    clock: options.clock,
    authors,
    ...(options.source ? { source: options.source } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.paths ? { paths: options.paths } : {}),
    ...(options.controls ? { controls: options.controls } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
    ...(options.carTargets ? { carTargets: options.carTargets } : {}),
    ...(options.chargerPath ? { chargerPath: options.chargerPath } : {}),
    carPlugged: () => options.rules()?.carState?.()?.plugged,
  });
  const stream = new EventStream();
  const backtests = options.backtest ? new BacktestJobs(options.backtest.spawn ?? spawnCli, logger) : undefined;
  const cloud: CloudTally = { lastStatus: null, lastSuccess: null, requests: 0, failures: 0 };
  const clock = options.clock;
  const startedAt = clock.now();
  const recentRuleEvents: RuleEvent[] = [];
  let server: Server | undefined;
  let url = "";
  let assets = new Map<string, Asset>();

  const health = (): WebHealth => {
    const budget = options.budget();
    let bytes: number | null = null;
    try {
      bytes = statSync(options.storePath).size;
    } catch {
      bytes = null;
    }
    return {
      version: options.version,
      node: process.version,
      startedAt,
      cloud: { simulated: options.simulated, ...cloud },
      budget: budget ? { used: budget.used, limit: budget.limit } : null,
      store: { path: options.storePath, bytes, status: options.store ? "ok" : "not open" },
      rules: options.rules() !== undefined,
      paths: Object.entries(options.paths?.() ?? {}).map(([device, path]) => ({ device, ...path })),
      refused: options.refusal?.() ?? null,
      writes: options.writesToday?.() ?? null,
      source: options.source ?? "cloud",
    };
  };

  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    const peer = checkPeer(config, request);
    if (!peer.ok) return void text(response, peer.status, peer.message);
    const host = checkHost(config, request);
    if (!host.ok) return void text(response, host.status, host.message);
    const address = new URL(request.url ?? "/", "http://page");
    const path = address.pathname;
    if (path.startsWith("/api/")) {
      const token = checkToken(config, request, address);
      if (!token.ok) return void json(response, token.status, { error: token.message });
      handleApi({
        request,
        response,
        path,
        query: address.searchParams,
        options,
        live,
        stream,
        health,
        ruleEvents: () => recentRuleEvents,
        backtests,
      }).catch((error: unknown) => {
        logger.error({ err: error, path }, "the web API failed");
        if (!response.headersSent) json(response, 500, { error: (error as Error).message });
        else response.end();
      });
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") return void text(response, 405, "use GET");
    const file = path === "/" || path === "/index.html" ? "index.html" : path.slice(1);
    // The browser asks for it on its own; the page has no icon of its own yet.
    if (file === "favicon.ico") return void response.writeHead(204).end();
    const asset = assets.get(file);
    if (!asset) return void text(response, 404, "not found");
    const ingress = request.headers["x-ingress-path"];
    const gzip = /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
    const body =
      file === "index.html"
        ? Buffer.from(indexFor(asset.body, typeof ingress === "string" ? ingress : undefined))
        : gzip
          ? asset.gzip
          : asset.body;
    const encoded = gzip && file === "index.html" ? gzipSync(body) : body;
    response.writeHead(200, {
      "content-type": asset.type,
      ...(gzip ? { "content-encoding": "gzip" } : {}),
      vary: "accept-encoding",
      "cache-control": file === "index.html" ? "no-store" : "max-age=300",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      // Nothing from another host: no fonts, no CDN (ingress frames the page from Home Assistant).
      "content-security-policy":
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'",
    });
    response.end(request.method === "HEAD" ? undefined : encoded);
  };

  // Made only when someone is watching.
  const publishLive = (): void => {
    if (stream.size > 0) stream.send("live", live.snapshot());
  };

  return {
    name,
    get url() {
      return url;
    },
    async start() {
      if (!config.enabled) return;
      assets = loadAssets(options.assetsDir ?? defaultAssetsDir());
      if (!assets.has("index.html"))
        logger.warn(
          { dir: options.assetsDir ?? defaultAssetsDir() },
          "the web page is not built (npm run build): only its API is served",
        );
      const changes = new StateChanges();
      bus.on("fetched", name, (fetched) => {
        const state = changes.of(fetched);
        if (!state) return;
        live.reading(state);
        publishLive();
      });
      bus.on("availability", name, (reading) => {
        live.availabilityOf(reading);
        publishLive();
      });
      bus.on("clockProblem", name, (change) => {
        live.clockProblemOf(change);
        publishLive();
      });
      bus.on("freshness", name, (change) => {
        live.freshnessOf(change);
        publishLive();
      });
      bus.on("inventoryChanged", name, () => publishLive());
      bus.on("changeApplied", name, (event) => {
        const { request, requester, outcome } = event;
        if (request?.kind === "preset" && outcome.ok && !outcome.skipped)
          authors.set(presetKey(request.serial, request.preset), {
            rule: requester.via === "rule" ? (requester.name ?? null) : null,
          });
        stream.send("change", event);
        publishLive();
      });
      bus.on("ruleEvent", name, (event) => {
        recentRuleEvents.push(event);
        if (recentRuleEvents.length > RECENT_RULE_EVENTS) recentRuleEvents.shift();
        stream.send("rule", event);
      });
      bus.on("rulesChanged", name, ({ rules }) => stream.send("rules", rules));
      bus.on("cloudRequest", name, ({ status }) => {
        cloud.requests += 1;
        cloud.lastStatus = status ?? null;
        if (status !== undefined && status < 300) cloud.lastSuccess = clock.now();
        else cloud.failures += 1;
      });
      server = await listen(serve, config.host, config.port, options.portAttempts ?? 20);
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      url = `http://${host}:${port}/`;
      logger.info(
        { url, ingress: config.ingress, tokenRequired: config.token !== undefined },
        port === config.port || config.port === 0
          ? "web page served"
          : `web page served on port ${port} (${config.port} is taken)`,
      );
    },
    async stop() {
      bus.removeAll(name);
      stream.close();
      backtests?.stop();
      const running = server;
      server = undefined;
      if (!running) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
}

/** Listens on `port`, or the next free one when it is taken. */
async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host: string,
  port: number,
  attempts: number,
): Promise<Server> {
  for (let attempt = 0; ; attempt++) {
    const server = createServer(handler);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port === 0 ? 0 : port + attempt, host, () => resolve());
      });
      return server;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" || port === 0 || attempt + 1 >= attempts) throw error;
    }
  }
}
