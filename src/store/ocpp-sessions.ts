import type { Database, Statement } from "better-sqlite3";
import { guard, StoreError } from "./errors.js";

/** One charging session an OCPP charge point ran, from StartTransaction to StopTransaction. */
export interface OcppSession {
  /** The transaction id the central system gave it: unique for ever. */
  readonly id: number;
  /** The charge point's identity. */
  readonly chargePoint: string;
  readonly connectorId: number;
  readonly idTag: string;
  /** Epoch ms, on the central system's clock. */
  readonly startedAt: number;
  /** Epoch ms; undefined while the session is open. */
  readonly stoppedAt?: number;
  /** The meter's reading in Wh when the session started. */
  readonly meterStartWh: number;
  /** The meter's reading in Wh when it stopped; undefined while open, or when the session was closed without one. */
  readonly meterStopWh?: number;
  /** meterStopWh less meterStartWh, in kWh; undefined without meterStopWh. */
  readonly energyKwh?: number;
  /** StopTransaction's reason (Local, Remote, EVDisconnected, ...); undefined when none was given. */
  readonly stopReason?: string;
}

export interface OcppSessionStart {
  readonly chargePoint: string;
  readonly connectorId: number;
  readonly idTag: string;
  readonly startedAt: number;
  readonly meterStartWh: number;
}

export interface OcppSessionStop {
  readonly stoppedAt: number;
  /** Left out when the session is closed without the charge point's reading (a lost StopTransaction). */
  readonly meterStopWh?: number;
  readonly stopReason?: string;
}

/** The OCPP central system's sessions, kept across restarts. */
export interface OcppSessionStore {
  /** Opens a session and gives it a transaction id that was never given before. */
  open(start: OcppSessionStart): OcppSession;
  /** Closes the session; undefined when there is no such session, the session as it was when it is closed already. */
  close(id: number, stop: OcppSessionStop): OcppSession | undefined;
  get(id: number): OcppSession | undefined;
  /** The charge point's open session (on the connector, when given), newest first. */
  openOf(chargePoint: string, connectorId?: number): OcppSession | undefined;
  /** The newest `limit` sessions, newest first; of one charge point when given. */
  recent(limit: number, chargePoint?: string): OcppSession[];
}

interface Row {
  transaction_id: unknown;
  charge_point: unknown;
  connector_id: unknown;
  id_tag: unknown;
  started_at: unknown;
  stopped_at: unknown;
  meter_start_wh: unknown;
  meter_stop_wh: unknown;
  stop_reason: unknown;
}

const COLUMNS =
  "transaction_id, charge_point, connector_id, id_tag, started_at, stopped_at, meter_start_wh, meter_stop_wh, stop_reason";

export class SqliteOcppSessions implements OcppSessionStore {
  private readonly insert: Statement<[string, number, string, number, number], Row>;
  private readonly finish: Statement<[number, number | null, string | null, number]>;
  private readonly one: Statement<[number], Row>;
  private readonly openAny: Statement<[string], Row>;
  private readonly openOn: Statement<[string, number], Row>;
  private readonly newest: Statement<[number], Row>;
  private readonly newestOf: Statement<[string, number], Row>;

  constructor(
    db: Database,
    private readonly path: string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO ocpp_sessions (charge_point, connector_id, id_tag, started_at, meter_start_wh)
       VALUES (?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    );
    this.finish = db.prepare(
      `UPDATE ocpp_sessions SET stopped_at = ?, meter_stop_wh = ?, stop_reason = ?
       WHERE transaction_id = ? AND stopped_at IS NULL`,
    );
    this.one = db.prepare(`SELECT ${COLUMNS} FROM ocpp_sessions WHERE transaction_id = ?`);
    this.openAny = db.prepare(
      `SELECT ${COLUMNS} FROM ocpp_sessions WHERE charge_point = ? AND stopped_at IS NULL
       ORDER BY transaction_id DESC LIMIT 1`,
    );
    this.openOn = db.prepare(
      `SELECT ${COLUMNS} FROM ocpp_sessions WHERE charge_point = ? AND connector_id = ? AND stopped_at IS NULL
       ORDER BY transaction_id DESC LIMIT 1`,
    );
    this.newest = db.prepare(`SELECT ${COLUMNS} FROM ocpp_sessions ORDER BY transaction_id DESC LIMIT ?`);
    this.newestOf = db.prepare(
      `SELECT ${COLUMNS} FROM ocpp_sessions WHERE charge_point = ? ORDER BY transaction_id DESC LIMIT ?`,
    );
  }

  open(start: OcppSessionStart): OcppSession {
    const row = guard(this.path, () =>
      this.insert.get(start.chargePoint, start.connectorId, start.idTag, start.startedAt, start.meterStartWh),
    );
    if (row === undefined) throw new StoreError("failed", this.path, "the store gave no row back for a new session");
    return this.read(row);
  }

  close(id: number, stop: OcppSessionStop): OcppSession | undefined {
    guard(this.path, () => this.finish.run(stop.stoppedAt, stop.meterStopWh ?? null, stop.stopReason ?? null, id));
    return this.get(id);
  }

  get(id: number): OcppSession | undefined {
    const row = guard(this.path, () => this.one.get(id));
    return row === undefined ? undefined : this.read(row);
  }

  openOf(chargePoint: string, connectorId?: number): OcppSession | undefined {
    const row = guard(this.path, () =>
      connectorId === undefined ? this.openAny.get(chargePoint) : this.openOn.get(chargePoint, connectorId),
    );
    return row === undefined ? undefined : this.read(row);
  }

  recent(limit: number, chargePoint?: string): OcppSession[] {
    const rows = guard(this.path, () =>
      chargePoint === undefined ? this.newest.all(limit) : this.newestOf.all(chargePoint, limit),
    );
    return rows.map((row) => this.read(row));
  }

  private read(row: Row): OcppSession {
    const r = row;
    const int = (value: unknown): value is number => Number.isSafeInteger(value);
    const fits =
      int(r.transaction_id) &&
      typeof r.charge_point === "string" &&
      int(r.connector_id) &&
      typeof r.id_tag === "string" &&
      int(r.started_at) &&
      (r.stopped_at === null || int(r.stopped_at)) &&
      int(r.meter_start_wh) &&
      (r.meter_stop_wh === null || int(r.meter_stop_wh)) &&
      (r.stop_reason === null || typeof r.stop_reason === "string");
    if (!fits)
      throw new StoreError(
        "corrupt",
        this.path,
        `an ocpp_sessions row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    return session({
      id: r.transaction_id as number,
      chargePoint: r.charge_point as string,
      connectorId: r.connector_id as number,
      idTag: r.id_tag as string,
      startedAt: r.started_at as number,
      meterStartWh: r.meter_start_wh as number,
      ...(r.stopped_at === null ? {} : { stoppedAt: r.stopped_at as number }),
      ...(r.meter_stop_wh === null ? {} : { meterStopWh: r.meter_stop_wh as number }),
      ...(r.stop_reason === null ? {} : { stopReason: r.stop_reason as string }),
    });
  }
}

/** The same in memory, for a daemon whose store could not be opened: sessions then last until it stops. */
export class MemoryOcppSessions implements OcppSessionStore {
  private readonly sessions = new Map<number, OcppSession>();
  private last = 0;

  open(start: OcppSessionStart): OcppSession {
    this.last += 1;
    const opened = session({ id: this.last, ...start });
    this.sessions.set(opened.id, opened);
    return opened;
  }

  close(id: number, stop: OcppSessionStop): OcppSession | undefined {
    const found = this.sessions.get(id);
    if (found === undefined || found.stoppedAt !== undefined) return found;
    const closed = session({
      ...found,
      stoppedAt: stop.stoppedAt,
      ...(stop.meterStopWh === undefined ? {} : { meterStopWh: stop.meterStopWh }),
      ...(stop.stopReason === undefined ? {} : { stopReason: stop.stopReason }),
    });
    this.sessions.set(id, closed);
    return closed;
  }

  get(id: number): OcppSession | undefined {
    return this.sessions.get(id);
  }

  openOf(chargePoint: string, connectorId?: number): OcppSession | undefined {
    return this.recent(Number.MAX_SAFE_INTEGER, chargePoint).find(
      (s) => s.stoppedAt === undefined && (connectorId === undefined || s.connectorId === connectorId),
    );
  }

  recent(limit: number, chargePoint?: string): OcppSession[] {
    return [...this.sessions.values()]
      .filter((s) => chargePoint === undefined || s.chargePoint === chargePoint)
      .sort((a, b) => b.id - a.id)
      .slice(0, limit);
  }
}

/** The session with its energy worked out from the two meter readings. */
function session(fields: Omit<OcppSession, "energyKwh">): OcppSession {
  const { energyKwh: _ignored, ...rest } = fields as OcppSession;
  return rest.meterStopWh === undefined ? rest : { ...rest, energyKwh: (rest.meterStopWh - rest.meterStartWh) / 1000 };
}
