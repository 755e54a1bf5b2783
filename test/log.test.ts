import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/log.js";

describe("logger", () => {
  it("never writes a token, password or authorization header", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger("info", sink);
    log.info(
      {
        token: "t0ps3cret",
        cloud: { token: "c10ud" },
        mqtt: { password: "pa55" },
        headers: { authorization: "Bearer abc" },
      },
      "start",
    );
    const text = lines.join("");
    for (const secret of ["t0ps3cret", "c10ud", "pa55", "Bearer abc"]) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
    expect(JSON.parse(lines[0] ?? "{}").msg).toBe("start");
  });
});
