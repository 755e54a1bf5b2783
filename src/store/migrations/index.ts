import type { Migration } from "../migrate.js";
import { auditLog } from "./001-audit-log.js";
import { history } from "./002-history.js";
import { ruleObligations } from "./003-rule-obligations.js";
import { perControlRestore } from "./004-per-control-restore.js";
import { writeBudgetAndSnapshots } from "./005-write-budget-and-snapshots.js";
import { solarForecasts } from "./006-solar-forecasts.js";
import { publishedPrices } from "./007-published-prices.js";
import { ocppSessions } from "./008-ocpp-sessions.js";
import { settingsBackups } from "./009-settings-backups.js";
import { archivedTariffPrices } from "./010-archived-tariff-prices.js";

/** Every schema step in order; append only, never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  auditLog,
  history,
  ruleObligations,
  perControlRestore,
  writeBudgetAndSnapshots,
  solarForecasts,
  publishedPrices,
  ocppSessions,
  settingsBackups,
  archivedTariffPrices,
];
