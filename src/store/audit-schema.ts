import { z } from "zod";

/** One change as the control gate records it. */
export const auditEntryInput = z.object({
  /** Epoch milliseconds. */
  at: z.number().int().nonnegative(),
  /**
   * The way the change came (a Requester's `via`, or `web` for the web page): mqtt (a set topic),
   * rule, cli, bridge; rows written before 0.2 say homeassistant. The column's name, kept.
   */
  source: z.string().min(1),
  /** The entity, the rule's name, the MQTT client. */
  requesterName: z.string().optional(),
  /** inverter, ev_charger. */
  targetKind: z.string().min(1),
  /** Serial or uuid. */
  target: z.string().min(1),
  /** e.g. setting:71, preset:timed-charge, command:change-mode. */
  action: z.string().min(1),
  /** The request as asked, stored as JSON. */
  request: z.json(),
  ok: z.boolean(),
  code: z.number().int().optional(),
  verified: z.boolean(),
  skipped: z.boolean(),
  message: z.string(),
});
export type AuditEntryInput = z.input<typeof auditEntryInput>;

export const auditQuery = z.object({
  target: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(10_000).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;

const flag = z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1);

const jsonText = z.string().transform((text, context): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.issues.push({ code: "custom", message: "expected JSON text", input: text });
    return z.NEVER;
  }
});

/** A row of audit_log as SQLite hands it out, read into an AuditEntry. */
export const auditRow = z
  .object({
    id: z.number().int(),
    at: z.number().int(),
    source: z.string(),
    requester_name: z.string().nullable(),
    target_kind: z.string(),
    target: z.string(),
    action: z.string(),
    request: jsonText,
    ok: flag,
    code: z.number().int().nullable(),
    verified: flag,
    skipped: flag,
    message: z.string(),
  })
  .transform((row) => ({
    id: row.id,
    at: row.at,
    source: row.source,
    requesterName: row.requester_name ?? undefined,
    targetKind: row.target_kind,
    target: row.target,
    action: row.action,
    request: row.request,
    ok: row.ok,
    code: row.code ?? undefined,
    verified: row.verified,
    skipped: row.skipped,
    message: row.message,
  }));
export type AuditEntry = z.output<typeof auditRow>;
