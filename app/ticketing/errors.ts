// What the engine says when it refuses. Each reason maps to wording in the locale files; the
// engine never words anything itself.
export type RefusalReason =
  | "unavailable"
  /** Best available: no block that fits the request is free. */
  | "no-block"
  | "seat-limit"
  | "not-on-sale"
  | "sales-closed"
  | "presale"
  | "restricted"
  | "companion-limit"
  | "not-found"
  | "expired"
  | "extension-limit"
  | "busy";

export interface Refusal {
  ok: false;
  reason: RefusalReason;
  /** For "seat-limit": the configured number of seats per purchase. */
  seatSelectionLimit?: number;
  /** For "unavailable": the seats that were taken. */
  seatIds?: number[];
  /** For "companion-limit": how many companion seats this buyer may book. */
  companionLimit?: number;
}

export const refuse = (reason: RefusalReason, details: Omit<Refusal, "ok" | "reason"> = {}): Refusal => ({
  ok: false,
  reason,
  ...details,
});

/** True when the database gave up waiting for a lock; the buyer is told to try again shortly. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "40001" || code === "40P01" || code === "55P03";
}
