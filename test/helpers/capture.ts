import { Writable } from "node:stream";

/** A writable stream that keeps what a command printed, for assertions. */
export function capture() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}
