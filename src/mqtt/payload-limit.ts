/**
 * Commands and bridge requests are small: a number, ON, a JSON object of a few fields. Anything
 * larger is refused unread, and no answer ever repeats more than a short start of a payload.
 */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** How much of a bad payload an answer shows. */
const SHOWN_CHARACTERS = 40;

/** The refusal for a payload over the limit; undefined when it is within it. */
export function oversized(payload: string, what: "command" | "request"): string | undefined {
  const bytes = Buffer.byteLength(payload, "utf8");
  if (bytes <= MAX_PAYLOAD_BYTES) return undefined;
  return `the payload is ${bytes} bytes; a ${what} may be at most ${MAX_PAYLOAD_BYTES} bytes (64 KiB): nothing was read or sent`;
}

/** A payload quoted for a message: whole when short, else its start and its length. */
export function quotePayload(payload: string): string {
  if (payload.length <= SHOWN_CHARACTERS) return JSON.stringify(payload);
  return `${JSON.stringify(`${payload.slice(0, SHOWN_CHARACTERS)}…`)} (${payload.length} characters)`;
}
