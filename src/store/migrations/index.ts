import type { Migration } from "../migrate.js";
import { auditLog } from "./001-audit-log.js";

/** Every schema step in order; append only, never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [auditLog];
