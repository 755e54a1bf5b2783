import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Dispatcher } from "undici";

export interface TransportRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

export interface Transport {
  (url: string, request: TransportRequest): Promise<TransportResponse>;
  /** Closes idle keep-alive connections; for shutdown. */
  close?(): void;
}

/** A request that got no answer in time; `code` matches undici's so callers treat both alike. */
export class TransportTimeoutError extends Error {
  readonly code = "UND_ERR_HEADERS_TIMEOUT";
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * Node's own HTTP client with keep-alive. The daemon uses it rather than undici, whose
 * WebAssembly parser costs about 20 MB of resident memory for no gain at a few requests a minute.
 */
export function nodeTransport(): Transport {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, maxSockets: 32 }),
    "https:": new HttpsAgent({ keepAlive: true, maxSockets: 32 }),
  };
  const send = (url: string, request: TransportRequest): Promise<TransportResponse> =>
    new Promise<TransportResponse>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === "https:";
      const send = secure ? httpsRequest : httpRequest;
      const headers: Record<string, string> = { ...request.headers };
      if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
      const req = send(
        target,
        { method: request.method, headers, agent: secure ? agents["https:"] : agents["http:"], signal: request.signal },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers as IncomingHttpHeaders,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      );
      req.setTimeout(request.timeoutMs, () => req.destroy(new TransportTimeoutError(request.timeoutMs)));
      req.on("error", reject);
      req.end(request.body);
    });
  return Object.assign(send, {
    close: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  });
}

/** undici with a given dispatcher (a MockAgent in tests), loaded only when one is given. */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  let loaded: Promise<typeof import("undici")> | undefined;
  return async (url, request) => {
    loaded ??= import("undici");
    const { request: undiciRequest } = await loaded;
    const response = await undiciRequest(url, {
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      dispatcher,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
}
