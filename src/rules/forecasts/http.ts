import type { z } from "zod";

/** A provider's answer that could not be used, with what to check. */
export class ForecastError extends Error {
  override readonly name = "ForecastError";
}

const TIMEOUT_MS = 20_000;

/**
 * GETs a JSON body and parses it with the provider's schema. The error says which service,
 * the HTTP status and what the body said; the URL is given without its query string, which may
 * carry a key.
 */
export async function getJson<T>(
  service: string,
  url: URL,
  schema: z.ZodType<T>,
  options: { readonly headers?: Readonly<Record<string, string>>; readonly signal?: AbortSignal } = {},
): Promise<T> {
  const where = `${url.origin}${url.pathname}`;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)])
    : AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json", ...options.headers }, signal });
  } catch (error) {
    throw new ForecastError(
      `${service}: ${where} did not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    const said = text.length > 200 ? `${text.slice(0, 200)}...` : text;
    throw new ForecastError(
      `${service}: ${where} answered HTTP ${response.status}${said ? `: ${said.replace(/\s+/g, " ")}` : ""}`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ForecastError(`${service}: ${where} answered something that is not JSON`);
  }
  return parseBody(service, body, schema);
}

export function parseBody<T>(service: string, body: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ForecastError(
      `${service}: the answer does not have the expected shape (${first ? `${first.path.join(".") || "body"}: ${first.message}` : "unknown"})`,
    );
  }
  return parsed.data;
}
