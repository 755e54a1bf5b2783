export { ENDPOINTS, findEndpoint } from "./catalogue.js";
export { CloudClient } from "./client.js";
export { defineEndpoint, type EndpointInfo, encodeQuery, fillPath, type HttpMethod } from "./endpoint.js";
export * from "./errors.js";
export { type CallOptions, type CloudClientOptions, CloudHttp, DEFAULT_CONTEXT, type RawResponse } from "./http.js";
export { PageIterator } from "./pagination.js";
export { type Priority, RateBudget, type RateBudgetOptions, RateBudgetRegistry, sharedBudgets } from "./rate-budget.js";
export * from "./results.js";
