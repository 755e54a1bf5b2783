import { describe, expect, it } from "vitest";
import {
  InvalidRequestError,
  ResponseShapeError,
  ServerError,
  TransportError,
  ValidationError,
} from "../../src/cloud/errors.js";
import { inverterControlEndpoints } from "../../src/cloud/sections/inverter-control.js";
import { describeFailure } from "../../src/control/cloud-failure.js";

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
});
