import { describe, expect, it } from "vitest";
import {
  InvalidRequestError,
  RateLimitedError,
  ResponseShapeError,
  ServerError,
  TransportError,
  ValidationError,
} from "../../src/cloud/errors.js";
import { statusError } from "../../src/cloud/http.js";
import { inverterControlEndpoints } from "../../src/cloud/sections/inverter-control.js";
import { describeFailure, failureText } from "../../src/control/cloud-failure.js";
import { PathFailure } from "../../src/vocabulary/failures.js";

const endpoint = inverterControlEndpoints.writeSetting;
const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("describeFailure", () => {
  it("treats answers that may have reached the device as needing a read-back", () => {
    expect(describeFailure(new TransportError(endpoint, withCode("UND_ERR_HEADERS_TIMEOUT"), true))).toMatchObject({
      mayHaveApplied: true,
      message: expect.stringContaining("no answer before the timeout"),
    });
    expect(describeFailure(new TransportError(endpoint, withCode("ECONNRESET"), false)).mayHaveApplied).toBe(true);
    expect(describeFailure(new ServerError(endpoint, 504)).mayHaveApplied).toBe(true);
    expect(describeFailure(new ResponseShapeError(endpoint, "data", "odd", 200)).mayHaveApplied).toBe(true);
    expect(describeFailure(Object.assign(new Error("aborted"), { name: "AbortError" })).mayHaveApplied).toBe(true);
  });

  it("treats answers that say nothing was done as final", () => {
    expect(describeFailure(new TransportError(endpoint, withCode("ECONNREFUSED"), false)).mayHaveApplied).toBe(false);
    expect(describeFailure(new ServerError(endpoint, 503)).mayHaveApplied).toBe(false);
    expect(describeFailure(new ValidationError(endpoint, { value: ["too big"] })).mayHaveApplied).toBe(false);
    expect(describeFailure(new InvalidRequestError(endpoint, { value: ["bad"] })).mayHaveApplied).toBe(false);
    expect(describeFailure(new Error("bug"))).toEqual({ message: "unexpected error: bug", mayHaveApplied: false });
  });

  it("decides by the daemon's kinds, whichever path raised the failure", () => {
    const refused = new PathFailure("transport", "the dongle refused the connection", {
      cause: withCode("ECONNREFUSED"),
    });
    expect(describeFailure(refused)).toEqual({ message: "the dongle refused the connection", mayHaveApplied: false });
    expect(
      describeFailure(new PathFailure("transport", "reset", { cause: withCode("ECONNRESET") })).mayHaveApplied,
    ).toBe(true);
    expect(describeFailure(new PathFailure("transport", "gone")).mayHaveApplied).toBe(true);
    expect(describeFailure(new PathFailure("timeout", "no answer")).mayHaveApplied).toBe(true);
    expect(describeFailure(new PathFailure("server", "failed", { status: 500 })).mayHaveApplied).toBe(true);
    expect(describeFailure(new PathFailure("unavailable", "maintenance")).mayHaveApplied).toBe(false);
    expect(describeFailure(new PathFailure("forbidden", "not allowed")).mayHaveApplied).toBe(false);
  });
});

describe("failureText", () => {
  it("tells a path's failure and any other error by its own message", () => {
    expect(failureText(new PathFailure("not-found", "no such snapshot"))).toBe("no such snapshot");
    expect(failureText(new Error("the device holds 40"))).toBe("the device holds 40");
    expect(failureText(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(
      "cancelled while it was being sent",
    );
  });
});

describe("the cloud's errors in the daemon's words", () => {
  it.each([
    [400, "bad-request"],
    [401, "unauthorised"],
    [402, "subscription-required"],
    [403, "forbidden"],
    [404, "not-found"],
    [422, "invalid-data"],
    [500, "server"],
    [503, "unavailable"],
    [504, "server"],
    [302, "unexpected-answer"],
  ] as const)("an answer %i is a %s failure, its status kept", (status, kind) => {
    const error = statusError(endpoint, { status, headers: {}, body: { message: "said" } });
    expect(error).toBeInstanceOf(PathFailure);
    expect(error).toMatchObject({ kind, status });
  });

  it("names the failures without an answer, or before sending, by their kind", () => {
    const cause = withCode("ECONNREFUSED");
    expect(new TransportError(endpoint, cause, false)).toMatchObject({ kind: "transport", cause, status: undefined });
    expect(new TransportError(endpoint, cause, true)).toMatchObject({ kind: "timeout" });
    expect(new RateLimitedError(endpoint, 0)).toMatchObject({ kind: "rate-limited", status: 429 });
    expect(new InvalidRequestError(endpoint, { value: ["bad"] })).toMatchObject({ kind: "invalid-request" });
    expect(new ResponseShapeError(endpoint, "data", "odd", 200)).toMatchObject({ kind: "response-shape" });
  });
});
