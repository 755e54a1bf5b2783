import { type FailureKind, PathFailure } from "../vocabulary/failures.js";
import type { EndpointInfo } from "./endpoint.js";

/**
 * Every failure of a cloud call is a CloudError naming the endpoint, so callers never see a bare
 * crash; its kind is the daemon's word for it (src/vocabulary/failures.ts), which callers outside
 * the cloud decide by.
 */
export class CloudError extends PathFailure {
  override readonly name: string = "CloudError";
  constructor(
    kind: FailureKind,
    readonly endpoint: EndpointInfo,
    message: string,
    status?: number,
    readonly body?: unknown,
    cause?: unknown,
  ) {
    super(kind, `${endpoint.name} (${endpoint.method} ${endpoint.path}): ${message}`, { status, cause });
  }
}

/**
 * Since May 2026 an account without the vendor's paid API subscription is answered 401 or 403,
 * the codes a wrong token gets: the two cannot be told apart by the answer alone.
 */
export const REFUSED =
  "refused: the token is wrong or the account lacks the vendor's API subscription (required since May 2026)";

export class AuthenticationError extends CloudError {
  override readonly name = "AuthenticationError";
  constructor(endpoint: EndpointInfo, body?: unknown) {
    super(
      "unauthorised",
      endpoint,
      `${REFUSED} (401). Check the subscription in the portal, or create a token under Account Settings > API tokens and set cloud.token (or ENERGY2MQTT_CLOUD_TOKEN).`,
      401,
      body,
    );
  }
}

export class SubscriptionRequiredError extends CloudError {
  override readonly name = "SubscriptionRequiredError";
  constructor(endpoint: EndpointInfo, body?: unknown) {
    super(
      "subscription-required",
      endpoint,
      "this account needs a premium subscription to use the API (402). Subscribe in the portal, or archive what you can while access lasts.",
      402,
      body,
    );
  }
}

export class ForbiddenError extends CloudError {
  override readonly name = "ForbiddenError";
  constructor(endpoint: EndpointInfo, body?: unknown) {
    super("forbidden", endpoint, forbiddenMessage(endpoint, body), 403, body);
  }
}

function forbiddenMessage(endpoint: EndpointInfo, body: unknown): string {
  const parts = [`${REFUSED}, or the token or account is not allowed to call this (403).`];
  if (endpoint.scopes.length > 0) parts.push(`The token needs the scope(s) ${endpoint.scopes.join(", ")}.`);
  if (endpoint.accountType) parts.push(`The account must be of type ${endpoint.accountType}.`);
  const serverMessage = messageOf(body);
  if (serverMessage) parts.push(`The server said: ${serverMessage}`);
  return parts.join(" ");
}

export class NotFoundError extends CloudError {
  override readonly name = "NotFoundError";
  constructor(endpoint: EndpointInfo, body?: unknown) {
    super("not-found", endpoint, `not found (404)${suffix(body)}`, 404, body);
  }
}

export class BadRequestError extends CloudError {
  override readonly name = "BadRequestError";
  constructor(endpoint: EndpointInfo, body?: unknown) {
    super("bad-request", endpoint, `the request was valid but failed (400)${suffix(body)}`, 400, body);
  }
}

/** 422: `errors` maps each invalid field to the server's messages. */
export class ValidationError extends CloudError {
  override readonly name = "ValidationError";
  constructor(
    endpoint: EndpointInfo,
    readonly errors: Record<string, string[]>,
    body?: unknown,
  ) {
    const detail = Object.entries(errors)
      .map(([field, messages]) => `${field}: ${messages.join("; ")}`)
      .join(", ");
    super("invalid-data", endpoint, `invalid data (422)${detail ? `: ${detail}` : suffix(body)}`, 422, body);
  }
}

export class RateLimitedError extends CloudError {
  override readonly name = "RateLimitedError";
  constructor(
    endpoint: EndpointInfo,
    readonly retryAtMs: number,
    body?: unknown,
  ) {
    super(
      "rate-limited",
      endpoint,
      `rate limit exceeded (429); this token is paused until ${new Date(retryAtMs).toISOString()}`,
      429,
      body,
    );
  }
}

/** 5xx: 503 is maintenance, 504 a slow request; all of them are retried for reads. */
export class ServerError extends CloudError {
  override readonly name = "ServerError";
  constructor(endpoint: EndpointInfo, status: number, body?: unknown) {
    super(
      status === 503 ? "unavailable" : "server",
      endpoint,
      `${serverMeaning(status)} (${status})${suffix(body)}`,
      status,
      body,
    );
  }
}

function serverMeaning(status: number): string {
  if (status === 503) return "the API is offline for maintenance";
  if (status === 504) return "the request took too long on the server";
  return "server error";
}

/** No HTTP answer at all: refused connection, reset, or our own timeout. */
export class TransportError extends CloudError {
  override readonly name = "TransportError";
  constructor(
    endpoint: EndpointInfo,
    override readonly cause: unknown,
    readonly timedOut: boolean,
  ) {
    super(
      timedOut ? "timeout" : "transport",
      endpoint,
      timedOut ? "no answer before the timeout" : `could not reach the server: ${describe(cause)}`,
      undefined,
      undefined,
      cause,
    );
  }
}

/** The answer did not fit the documented shape; `field` is the path of the first bad field. */
export class ResponseShapeError extends CloudError {
  override readonly name = "ResponseShapeError";
  constructor(
    endpoint: EndpointInfo,
    readonly field: string,
    readonly problem: string,
    status: number,
    body?: unknown,
  ) {
    super("response-shape", endpoint, `unexpected response shape at "${field}": ${problem}`, status, body);
  }
}

export class UnexpectedStatusError extends CloudError {
  override readonly name = "UnexpectedStatusError";
  constructor(endpoint: EndpointInfo, status: number, body?: unknown) {
    super("unexpected-answer", endpoint, `unexpected HTTP status ${status}${suffix(body)}`, status, body);
  }
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null && "message" in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === "string" && message.length > 0) return message;
  }
  return undefined;
}

function suffix(body: unknown): string {
  const message = messageOf(body);
  return message ? `: ${message}` : "";
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === "string" ? `${code} ${cause.message}` : cause.message;
  }
  return String(cause);
}

/** Caught before sending: the request itself breaks the reference's rules, so no budget is spent. */
export class InvalidRequestError extends CloudError {
  override readonly name = "InvalidRequestError";
  constructor(
    endpoint: EndpointInfo,
    readonly errors: Record<string, string[]>,
  ) {
    const detail = Object.entries(errors)
      .map(([field, messages]) => `${field}: ${messages.join("; ")}`)
      .join(", ");
    super("invalid-request", endpoint, `invalid request, not sent: ${detail}`);
  }
}
