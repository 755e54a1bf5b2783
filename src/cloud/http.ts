import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { Clock } from "../time/index.js";
import { type EndpointInfo, encodeQuery, fillPath, type QueryInput } from "./endpoint.js";
import {
  AuthenticationError,
  BadRequestError,
  type CloudError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  SubscriptionRequiredError,
  TransportError,
  UnexpectedStatusError,
  ValidationError,
} from "./errors.js";
import { PageIterator } from "./pagination.js";
import {
  type Permit,
  type Priority,
  RateBudget,
  type RateBudgetRegistry,
  type RateHeaders,
  sharedBudgets,
} from "./rate-budget.js";
import { type Page, page } from "./schemas/common.js";
import { nodeTransport, type Transport, undiciTransport } from "./transport.js";

export const DEFAULT_CONTEXT = "energy2mqtt";

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export interface CloudClientOptions {
  /** Base URL ending in /v1, e.g. https://api.givenergy.cloud/v1 or the simulator's. */
  readonly baseUrl: string;
  readonly token: string;
  /** Sent as `context` where the service records who made a change. */
  readonly context?: string;
  readonly requestsPerMinute?: number;
  /** Page size for paginated endpoints (the service's default is 15). */
  readonly pageSize?: number;
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** An undici dispatcher: a MockAgent in tests, a tuned Agent elsewhere. */
  readonly dispatcher?: Dispatcher;
  /** Supply a budget to share it explicitly; by default one is shared per base URL and token. */
  readonly budget?: RateBudget;
  /** Where per-token budgets (and per-endpoint ones such as notification send) live; process-wide by default. */
  readonly budgets?: RateBudgetRegistry;
  /** The clock of the budgets this client creates (their windows, pauses and back-off); the system clock by default. */
  readonly clock?: Clock;
  readonly onRequest?: (event: RequestEvent) => void;
}

export interface RequestEvent {
  readonly endpoint: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly attempt: number;
  readonly durationMs: number;
}

export interface CallOptions {
  readonly priority?: Priority;
  readonly signal?: AbortSignal;
  /** This call's own timeout, instead of the client's (a write kept open for its late answer). */
  readonly timeoutMs?: number;
  /** Called as each attempt leaves, after its wait for the rate budget. */
  readonly onSend?: () => void;
}

export interface RequestInput {
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: QueryInput;
  readonly body?: unknown;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The transport every section uses: headers, rate budget, retries, status mapping and parsing. */
export class CloudHttp {
  readonly context: string;
  readonly pageSize: number;
  readonly budget: RateBudget;
  private readonly base: string;
  private readonly authorization: string;
  private readonly budgetKey: string;
  /** How long one request may take, unless a call says otherwise. */
  readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly transport: Transport;
  private readonly onRequest: ((event: RequestEvent) => void) | undefined;
  private readonly budgets: RateBudgetRegistry;
  private readonly clock: Clock | undefined;
  /** One controller per call under way (waiting for the budget, sending or backing off), for close(). */
  private readonly calls = new Set<AbortController>();
  private closed = false;

  constructor(options: CloudClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError(`cloud base URL must start with http:// or https://, got "${options.baseUrl}"`);
    }
    if (!options.token) throw new TypeError("an API token is required");
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.authorization = `Bearer ${options.token}`;
    this.context = options.context ?? DEFAULT_CONTEXT;
    this.pageSize = options.pageSize ?? 100;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.transport = options.dispatcher ? undiciTransport(options.dispatcher) : nodeTransport();
    this.onRequest = options.onRequest;
    const tokenHash = createHash("sha256").update(options.token).digest("hex").slice(0, 16);
    this.budgetKey = `${this.base}|${tokenHash}`;
    const perMinute = options.requestsPerMinute ?? 300;
    this.budgets = options.budgets ?? sharedBudgets;
    this.clock = options.clock;
    const clock = this.clock ? { clock: this.clock } : {};
    this.budget =
      options.budget ??
      this.budgets.get(this.budgetKey, () => new RateBudget({ limit: perMinute, windowMs: 60_000, ...clock }));
  }

  /**
   * Aborts every call under way (sending, waiting for the rate budget, or waiting to retry) and
   * refuses new ones, so that shutdown never waits for a slow answer. A change cut short this
   * way ends as "cancelled while it was being sent".
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const reason = closedError();
    for (const call of this.calls) call.abort(reason);
    this.calls.clear();
    this.transport.close?.();
  }

  /** Calls an endpoint and parses its answer with `schema`. */
  async call<S extends z.ZodType>(
    endpoint: EndpointInfo,
    input: RequestInput,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    const response = await this.send(endpoint, input, options);
    return this.parse(endpoint, response, schema);
  }

  /**
   * Checks a request against its zod schema before anything is sent; a bad one throws
   * InvalidRequestError naming each field, and costs no rate budget.
   */
  validate<S extends z.ZodType>(endpoint: EndpointInfo, schema: S, input: unknown): z.output<S> {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.length > 0 ? issue.path.join(".") : "(request)";
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    throw new InvalidRequestError(endpoint, errors);
  }

  /** Pages of a paginated endpoint, fetched lazily; `.items()` walks the items across pages. */
  paginate<S extends z.ZodType>(
    endpoint: EndpointInfo,
    input: RequestInput,
    item: S,
    options: CallOptions & { readonly pageSize?: number; readonly firstPage?: number } = {},
  ): PageIterator<z.output<S>> {
    const schema = page(item);
    const pageSize = options.pageSize ?? this.pageSize;
    return new PageIterator<z.output<S>>(
      (pageNumber) =>
        this.call(
          endpoint,
          { ...input, query: { ...input.query, page: pageNumber, pageSize } },
          schema,
          options,
        ) as Promise<Page<z.output<S>>>,
      options.firstPage ?? 1,
    );
  }

  /** Sends a request and returns the HTTP answer as it came, for `energy2mqtt api`. */
  async raw(endpoint: EndpointInfo, input: RequestInput, options: CallOptions = {}): Promise<RawResponse> {
    return this.send(endpoint, input, options, true);
  }

  private async send(
    endpoint: EndpointInfo,
    input: RequestInput,
    options: CallOptions,
    acceptAnyStatus = false,
  ): Promise<RawResponse> {
    const url = `${this.base}${fillPath(endpoint.path, input.params)}${encodeQuery(input.query)}`;
    const priority = options.priority ?? (endpoint.idempotent ? "live" : "command");
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const call = this.track(options.signal);
    try {
      for (let attempt = 1; ; attempt++) {
        let failure: CloudError;
        try {
          const response = await this.once(endpoint, url, body, priority, attempt, { ...options, signal: call.signal });
          if (acceptAnyStatus || (response.status >= 200 && response.status < 300)) return response;
          failure =
            response.status === 429
              ? new RateLimitedError(endpoint, this.budgetFor(endpoint).state().pausedUntil, response.body)
              : statusError(endpoint, response);
        } catch (error) {
          if (!(error instanceof TransportError)) throw error;
          failure = error;
        }
        if (attempt >= this.retry.attempts || !this.retryable(endpoint, failure)) throw failure;
        if (!(failure instanceof RateLimitedError))
          await sleep(this.backoff(attempt), undefined, { signal: call.signal });
      }
    } finally {
      call.release();
    }
  }

  /**
   * A signal for one call that aborts with the caller's signal or with close(). It listens once
   * on the caller's signal and is forgotten when the call ends, so long-lived signals gather no
   * listeners.
   */
  private track(signal: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    if (this.closed) controller.abort(closedError());
    else if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener("abort", onAbort, { once: true });
    this.calls.add(controller);
    return {
      signal: controller.signal,
      release: () => {
        signal?.removeEventListener("abort", onAbort);
        this.calls.delete(controller);
      },
    };
  }

  /**
   * 429s were not processed, so anything may be sent again once the window ends, except on an
   * endpoint with a long limit of its own (notification send: an hour), where the caller decides.
   * Other failures are retried only when the endpoint is idempotent.
   */
  private retryable(endpoint: EndpointInfo, failure: CloudError): boolean {
    if (failure instanceof RateLimitedError) return endpoint.customLimit === undefined;
    if (!endpoint.idempotent) return false;
    return failure instanceof TransportError || failure instanceof ServerError;
  }

  private backoff(attempt: number): number {
    const capped = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return capped / 2 + Math.random() * (capped / 2);
  }

  private budgetFor(endpoint: EndpointInfo): RateBudget {
    const custom = endpoint.customLimit;
    if (!custom) return this.budget;
    return this.budgets.get(
      `${this.budgetKey}|${endpoint.method} ${endpoint.path}`,
      () =>
        new RateBudget({
          limit: custom.requests,
          windowMs: custom.minutes * 60_000,
          reserve: { live: 0, background: 0 },
          ...(this.clock ? { clock: this.clock } : {}),
        }),
    );
  }

  private async once(
    endpoint: EndpointInfo,
    url: string,
    body: string | undefined,
    priority: Priority,
    attempt: number,
    options: CallOptions,
  ): Promise<RawResponse> {
    const { signal } = options;
    const budget = this.budgetFor(endpoint);
    const permit: Permit = await budget.acquire(priority, signal);
    options.onSend?.();
    const started = performance.now();
    let status: number | undefined;
    try {
      const response = await this.transport(url, {
        method: endpoint.method,
        headers: {
          authorization: this.authorization,
          accept: "application/json",
          "content-type": "application/json",
        },
        body,
        signal,
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
      });
      status = response.status;
      const text = response.text;
      const headers = flattenHeaders(response.headers);
      const rate = rateHeaders(headers);
      permit.settle({ headers: rate, status });
      if (status === 429) budget.pause(retryAfter(headers, budget.now()));
      return { status, headers, body: parseBody(text) };
    } catch (error) {
      permit.settle();
      if (signal?.aborted) throw error;
      throw new TransportError(endpoint, error, isTimeout(error));
    } finally {
      this.onRequest?.({
        endpoint: endpoint.name,
        method: endpoint.method,
        path: endpoint.path,
        status,
        attempt,
        durationMs: performance.now() - started,
      });
    }
  }

  private parse<S extends z.ZodType>(endpoint: EndpointInfo, response: RawResponse, schema: S): z.output<S> {
    const result = schema.safeParse(response.body);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const { path, message } = issue ? furthest(issue) : { path: [], message: "invalid" };
    const field = path.length > 0 ? path.join(".") : "(body)";
    throw new ResponseShapeError(endpoint, field, message, response.status, response.body);
  }
}

/**
 * The issue to report: for a union that matched no branch (a lone object or a list, `[]` or an
 * object), the branch that got furthest into the body, so the message names the bad field
 * rather than "Invalid input" at the union. Ties go to the first branch, the usual shape.
 */
function furthest(
  issue: z.core.$ZodIssue,
  prefix: readonly PropertyKey[] = [],
): { path: PropertyKey[]; message: string } {
  const here = [...prefix, ...issue.path];
  if (issue.code === "invalid_union") {
    let best: { path: PropertyKey[]; message: string } | undefined;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (!first) continue;
      const candidate = furthest(first, here);
      if (!best || candidate.path.length > best.path.length) best = candidate;
    }
    if (best) return best;
  }
  return { path: here, message: issue.message };
}

function closedError(): DOMException {
  return new DOMException("the cloud client was closed: energy2mqtt is stopping", "AbortError");
}

/** The typed error for a non-2xx answer (429 aside, which the transport handles with its budget). */
export function statusError(endpoint: EndpointInfo, response: RawResponse): CloudError {
  const { status, body } = response;
  switch (status) {
    case 400:
      return new BadRequestError(endpoint, body);
    case 401:
      return new AuthenticationError(endpoint, body);
    case 402:
      return new SubscriptionRequiredError(endpoint, body);
    case 403:
      return new ForbiddenError(endpoint, body);
    case 404:
      return new NotFoundError(endpoint, body);
    case 422:
      return new ValidationError(endpoint, fieldErrors(body), body);
    default:
      return status >= 500
        ? new ServerError(endpoint, status, body)
        : new UnexpectedStatusError(endpoint, status, body);
  }
}

function fieldErrors(body: unknown): Record<string, string[]> {
  const errors = typeof body === "object" && body !== null ? (body as { errors?: unknown }).errors : undefined;
  if (typeof errors !== "object" || errors === null) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    out[field] = Array.isArray(messages) ? messages.map(String) : [String(messages)];
  }
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function integerHeader(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function rateHeaders(headers: Record<string, string>): RateHeaders {
  return {
    limit: integerHeader(headers["x-ratelimit-limit"]),
    remaining: integerHeader(headers["x-ratelimit-remaining"]),
  };
}

function retryAfter(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const seconds = integerHeader(headers["retry-after"]);
  return seconds === undefined ? undefined : now + seconds * 1000;
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT";
}
