import { MockAgent } from "undici";
import { expect } from "vitest";
import { CloudClient } from "../../src/cloud/client.js";
import type { CloudClientOptions } from "../../src/cloud/http.js";
import { RateBudget, RateBudgetRegistry } from "../../src/cloud/rate-budget.js";

export const MOCK_ORIGIN = "https://cloud.test";
export const MOCK_BASE = `${MOCK_ORIGIN}/v1`;
export const MOCK_TOKEN = "test-token-0123456789";

export interface CapturedRequest {
  readonly method: string;
  /** Path and query exactly as sent, e.g. `/v1/site?page=1&pageSize=100`. */
  readonly path: string;
  readonly headers: Record<string, string>;
  /** The parsed JSON body, or undefined when none was sent. */
  readonly body: unknown;
}

export interface MockReply {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/**
 * A CloudClient wired to undici's MockAgent. `reply()` queues one answer for a method and
 * path (the path without /v1 and without query); every request the client sends is captured.
 */
export function mockCloud(options: Partial<CloudClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(MOCK_ORIGIN);
  const requests: CapturedRequest[] = [];
  const client = new CloudClient({
    baseUrl: MOCK_BASE,
    token: MOCK_TOKEN,
    dispatcher: agent,
    budget: new RateBudget({ limit: 10_000, windowMs: 60_000 }),
    budgets: new RateBudgetRegistry(),
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });

  function reply(method: string, path: string, answer: MockReply = {}, times = 1): void {
    pool
      .intercept({ method, path: (sent: string) => sent.split("?")[0] === `/v1${path}` })
      .reply((opts) => {
        requests.push({
          method: opts.method,
          path: opts.path,
          headers: normaliseHeaders(opts.headers),
          body: typeof opts.body === "string" && opts.body.length > 0 ? JSON.parse(opts.body) : undefined,
        });
        return {
          statusCode: answer.status ?? 200,
          data: answer.body === undefined ? "" : JSON.stringify(answer.body),
          responseOptions: { headers: { "content-type": "application/json", ...answer.headers } },
        };
      })
      .times(times);
  }

  function replyWithError(method: string, path: string, error: Error): void {
    pool.intercept({ method, path: (sent: string) => sent.split("?")[0] === `/v1${path}` }).replyWithError(error);
  }

  /** The only request sent so far; fails the test when there were none or several. */
  function only(): CapturedRequest {
    if (requests.length !== 1) throw new Error(`expected exactly one request, saw ${requests.length}`);
    return requests[0] as CapturedRequest;
  }

  return { agent, client, requests, reply, replyWithError, only, close: () => agent.close() };
}

function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, unknown>))
    out[name.toLowerCase()] = String(value);
  return out;
}

/** A page in the service's pagination envelope, page `current` of `last`. */
export function pageOf<T>(data: T[], current: number, last: number) {
  return {
    data,
    links: {
      first: "x?page=1",
      last: `x?page=${last}`,
      prev: current > 1 ? `x?page=${current - 1}` : null,
      next: current < last ? `x?page=${current + 1}` : null,
    },
    meta: {
      current_page: current,
      from: 1,
      last_page: last,
      path: "x",
      per_page: data.length,
      to: data.length,
      total: data.length * last,
    },
  };
}

/** Asserts the method, exact path and query, the three required headers and the JSON body of a request. */
export function expectRequest(request: CapturedRequest | undefined, method: string, path: string, body: unknown): void {
  expect(request?.method).toBe(method);
  expect(request?.path).toBe(path);
  expect(request?.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
  expect(request?.headers.accept).toBe("application/json");
  expect(request?.headers["content-type"]).toBe("application/json");
  expect(request?.body).toEqual(body);
}
