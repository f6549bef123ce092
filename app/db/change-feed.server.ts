import pg from "pg";
import type { Store } from "./connection.server";

/** The channel the claims tables' trigger notifies (migration 2026-11-25T0300-several-processes). */
export const CLAIMS_CHANNEL = "claims_changed";

/** How the listener's connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = "box-office-claims-listener";

/**
 * What other processes sharing the store did to the seat and standing claims, as soon as they
 * committed it: a performance's id, or null when any performance may have changed (SQLite only
 * says that the file changed; a listener that was away may have missed something).
 */
export interface ChangeFeed {
  /** True while other processes' changes are heard as they commit; false while they may be missed. */
  live(): boolean;
  subscribe(listener: (performanceId: string | null) => void): () => void;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** SQLite: how often the file's data version is read (a read of shared memory, no I/O). */
  pollMs?: number;
  /** PostgreSQL: the first wait before connecting again after the listener lost its connection; it doubles… */
  retryMs?: number;
  /** …up to this. */
  maxRetryMs?: number;
  applicationName?: string;
  /** Hears when the listener starts or stops hearing (to log it). */
  onState?: (state: "listening" | "lost", error?: unknown) => void;
}

export function watchClaimChanges(store: Store, options: ChangeFeedOptions = {}): ChangeFeed {
  const listeners = new Set<(performanceId: string | null) => void>();
  const emit = (performanceId: string | null) => {
    for (const listener of listeners) listener(performanceId);
  };
  const subscribe = (listener: (performanceId: string | null) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  if (store.dataVersion) return watchSqlite(store.dataVersion, options, emit, subscribe);
  if (store.connectionString) return listenPostgres(store.connectionString, options, emit, subscribe);
  return { live: () => false, subscribe, close: async () => {} };
}

function watchSqlite(
  dataVersion: () => number,
  options: ChangeFeedOptions,
  emit: (performanceId: string | null) => void,
  subscribe: ChangeFeed["subscribe"],
): ChangeFeed {
  // The version moves only for commits made through other connections: this process's own holds
  // and releases already reach its cache directly. It cannot say which performance, so any
  // change elsewhere drops every count; a count costs one indexed read to make again.
  let seen = dataVersion();
  let live = true;
  const timer = setInterval(() => {
    let now: number;
    try {
      now = dataVersion();
    } catch (error) {
      // The file cannot be read (a failing disk): thrown from a timer, this would end the
      // process, which should go on answering 503 (build.server.ts) until the file is back.
      if (live) {
        live = false;
        emit(null);
        options.onState?.("lost", error);
      }
      return;
    }
    if (!live) {
      live = true;
      seen = now;
      // Whatever changed meanwhile went unheard.
      emit(null);
      options.onState?.("listening");
      return;
    }
    if (now === seen) return;
    seen = now;
    emit(null);
  }, options.pollMs ?? 100);
  timer.unref();
  return {
    live: () => live,
    subscribe,
    close: async () => clearInterval(timer),
  };
}

function listenPostgres(
  connectionString: string,
  options: ChangeFeedOptions,
  emit: (performanceId: string | null) => void,
  subscribe: ChangeFeed["subscribe"],
): ChangeFeed {
  const firstRetryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let retryMs = firstRetryMs;
  let current: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  function lost(client: pg.Client, error?: unknown) {
    if (current !== client) return;
    current = null;
    // Whatever was kept while listening may have missed a change from now on: forget it, and
    // read with the configured maximum age until the listener is back.
    const wasListening = listening;
    listening = false;
    emit(null);
    client.end().catch(() => {});
    if (wasListening) options.onState?.("lost", error);
    if (closed) return;
    retry = setTimeout(connect, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  function connect() {
    retry = null;
    if (closed) return;
    // A connection of its own, outside the pool: LISTEN belongs to a session, and a pooled
    // connection goes back to serve queries.
    const client = new pg.Client({
      connectionString,
      application_name: options.applicationName ?? LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    current = client;
    client.on("notification", (message) => {
      if (message.channel === CLAIMS_CHANNEL && message.payload) emit(message.payload);
    });
    client.on("error", (error) => lost(client, error));
    client.on("end", () => lost(client));
    client
      .connect()
      .then(() => client.query(`listen ${CLAIMS_CHANNEL}`))
      .then(() => {
        if (current !== client) return;
        listening = true;
        retryMs = firstRetryMs;
        // Changes made before LISTEN took effect were not heard: anything kept is suspect.
        emit(null);
        options.onState?.("listening");
      })
      .catch((error: unknown) => lost(client, error));
  }

  connect();
  return {
    live: () => listening,
    subscribe,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      listening = false;
      await client?.end().catch(() => {});
    },
  };
}
