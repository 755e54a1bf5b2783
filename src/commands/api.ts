import { findEndpoint } from "../cloud/catalogue.js";
import { defineEndpoint, type HttpMethod, type QueryInput } from "../cloud/endpoint.js";
import { AuthenticationError, CloudError, ForbiddenError } from "../cloud/errors.js";
import { CloudHttp, statusError } from "../cloud/http.js";
import { loadConfig } from "../config/index.js";

export interface ApiCommandOptions {
  readonly method: string;
  readonly path: string;
  readonly data?: string;
  readonly config?: string;
  readonly include?: boolean;
}

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

/**
 * `energy2mqtt api METHOD PATH [--data JSON]`: 0 on a 2xx answer, 2 on bad usage or a token the
 * cloud refuses (401, 403), 1 otherwise.
 */
export async function runApiCommand(
  options: ApiCommandOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const method = options.method.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) {
    err.write(`method must be one of ${METHODS.join(", ")}, got "${options.method}"\n`);
    return 2;
  }
  if (!options.path.startsWith("/")) {
    err.write(`path must start with /, e.g. /account (got "${options.path}")\n`);
    return 2;
  }
  let body: unknown;
  if (options.data !== undefined) {
    try {
      body = JSON.parse(options.data);
    } catch (error) {
      err.write(`--data is not valid JSON: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const { config } = loadConfig(options.config || process.env.ENERGY2MQTT_CONFIG);
  if (!config.cloud.url || !config.cloud.token) {
    err.write(
      "no cloud configured: set cloud.url and cloud.token in the configuration file (-c FILE), or ENERGY2MQTT_CLOUD_URL and ENERGY2MQTT_CLOUD_TOKEN\n",
    );
    return 2;
  }
  const http = new CloudHttp({
    baseUrl: config.cloud.url,
    token: config.cloud.token,
    context: config.cloud.context,
    requestsPerMinute: config.cloud.requests_per_minute,
    timeoutMs: config.cloud.timeout,
  });
  const [rawPath = "/", rawQuery = ""] = options.path.replace(/^\/v1(?=\/)/, "").split("?", 2);
  const endpoint =
    findEndpoint(method, rawPath) ?? defineEndpoint({ name: "API call", method, path: rawPath, scopes: [] });
  try {
    const response = await http.raw(
      { ...endpoint, path: rawPath },
      { query: parseQuery(rawQuery), body },
      { priority: "command" },
    );
    if (options.include) {
      const rate = `${response.headers["x-ratelimit-remaining"] ?? "?"}/${response.headers["x-ratelimit-limit"] ?? "?"}`;
      err.write(`HTTP ${response.status} (${endpoint.name}); rate limit remaining ${rate}\n`);
    }
    out.write(`${JSON.stringify(response.body ?? null, null, 2)}\n`);
    if (response.status >= 200 && response.status < 300) return 0;
    const failure = statusError(endpoint, response);
    err.write(`energy2mqtt api: HTTP ${response.status}: ${failure.message}\n`);
    return exitCodeOf(failure);
  } catch (error) {
    if (error instanceof CloudError) {
      err.write(`${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  }
}

/** A token the cloud rejects (401, or 403 for a scope it lacks) is 2, as for check, set and archive; the rest 1. */
function exitCodeOf(error: CloudError): number {
  return error instanceof AuthenticationError || error instanceof ForbiddenError ? 2 : 1;
}

/** `a[]=1&a[]=2&b=3` back into the client's query form, so it is sent encoded the same way. */
function parseQuery(text: string): QueryInput {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key.endsWith("[]")) {
      const name = key.slice(0, -2);
      const current = out[name];
      out[name] = Array.isArray(current) ? [...current, value] : [value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
