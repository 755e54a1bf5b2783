import { CloudClient } from "../../../cloud/index.js";
import type { Config } from "../../../config/index.js";

/** The cloud's client as the commands use it: the configured cloud, on the system clock. */
export function cloudClient(config: Config, url: string, token: string): CloudClient {
  return new CloudClient({
    baseUrl: url,
    token,
    context: config.cloud.context,
    requestsPerMinute: config.cloud.requests_per_minute,
    pageSize: config.cloud.page_size,
    timeoutMs: config.cloud.timeout,
  });
}
