import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Selectable } from "kysely";
import nodemailer from "nodemailer";
import { systemClock, type Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { EmailOutboxTable } from "~/db/schema";
import { maskEmail, type Logger } from "~/logging/logger.server";

// Emails go through a table, never straight to the mail server: the order is committed whatever
// happens to SMTP, the row survives a restart, and a delivery that fails is tried again later.

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Resolves once the message is accepted (by the SMTP server, or written to disk); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  /** Where messages go, without credentials, for logs and diagnostics. */
  describe(): string;
}

// Long enough to notice a dead server, short enough that a delivery run is never stuck for minutes.
const SMTP_TIMEOUT_MS = 10_000;

/**
 * SMTP when a URL is configured; otherwise each message becomes an .eml file in outboxDir, which any
 * mail client opens: development and demos need no mail server, and nothing is lost.
 */
export function createMailTransport(options: {
  smtpUrl?: string;
  outboxDir: string;
  logger: Logger;
  clock?: Clock;
}): MailTransport {
  const { smtpUrl, logger, clock = systemClock } = options;
  if (smtpUrl) {
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      // Our messages are plain strings; nothing should ever make nodemailer read a file or a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const url = new URL(smtpUrl);
    const where = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ""}`;
    return {
      async send(message) {
        await transporter.sendMail(message);
      },
      describe: () => where,
    };
  }

  const dir = resolve(options.outboxDir);
  mkdirSync(dir, { recursive: true });
  logger.info({ dir }, `emails are written to ${dir}`);
  const composer = nodemailer.createTransport({
    streamTransport: true,
    // The whole message at once, with CRLF line ends as RFC 5322 wants (nodemailer's own), ready to write.
    buffer: true,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      const info = await composer.sendMail(message);
      if (!Buffer.isBuffer(info.message)) throw new Error("the message was not composed into a buffer");
      // The time first so a folder listing is in sending order; the random part keeps two messages
      // in the same millisecond apart.
      const name = `${clock.now().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      // Written under a temporary name and renamed, so whoever watches the folder never reads half a message.
      await mkdir(dir, { recursive: true });
      const partial = join(dir, `.${name}.partial`);
      await writeFile(partial, info.message);
      await rename(partial, join(dir, name));
    },
    describe: () => `files in ${dir}`,
  };
}

export interface OutboxMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  orderId?: string | null;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
}

/** After the first attempt fails: 30 s, 2 min, 10 min, 1 h, 6 h; then the email is given up. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/**
 * How long a claimed row belongs to the process sending it. A process that dies mid-send leaves
 * the row to be picked up again after this; it must outlast the longest send (SEND_TIMEOUT_MS).
 */
const LEASE_MS = 5 * 60_000;
const SEND_TIMEOUT_MS = 60_000;
const MAX_ERROR_LENGTH = 500;

type OutboxRow = Selectable<EmailOutboxTable>;

/** SMTP replies often quote the recipient; logs must only carry masked addresses. */
function scrubAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g, (address) => maskEmail(address));
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, MAX_ERROR_LENGTH);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`sending took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createOutbox(options: {
  store: Store;
  clock: Clock;
  transport: MailTransport;
  logger: Logger;
  retryDelaysMs?: number[];
  /** The From header; config.emailFrom. */
  from?: string;
}) {
  const {
    store,
    clock,
    transport,
    logger,
    retryDelaysMs = DEFAULT_RETRY_DELAYS_MS,
    from = "Box Office <tickets@localhost>",
  } = options;
  const { db } = store;
  const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  /**
   * Takes one due row for this process, and returns it as it was before: one conditional update,
   * so when two runs (here or in another process) ask for the same row, one update changes it and
   * the other matches nothing, the row being no longer due (the database serialises the two
   * writes: a row lock on PostgreSQL, the write lock on SQLite).
   */
  async function claim(id: string): Promise<OutboxRow | undefined> {
    const claimed = await db
      .updateTable("email_outbox")
      .set((eb) => ({ next_attempt_at: later(LEASE_MS), attempts: eb("attempts", "+", 1) }))
      .where("id", "=", id)
      .where("status", "=", "queued")
      .where("next_attempt_at", "<=", clock.now().toISOString())
      .returningAll()
      .executeTakeFirst();
    return claimed && { ...claimed, attempts: claimed.attempts - 1 };
  }

  async function deliverOne(row: OutboxRow): Promise<"sent" | "retry" | "failed"> {
    const attempt = row.attempts + 1;
    const to = maskEmail(row.to_address);
    try {
      await withTimeout(
        transport.send({ from, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body }),
        SEND_TIMEOUT_MS,
      );
    } catch (error) {
      const reason = describeError(error);
      const delay = retryDelaysMs[attempt - 1];
      if (delay === undefined) {
        await db
          .updateTable("email_outbox")
          .set({ status: "failed", last_error: reason })
          .where("id", "=", row.id)
          .execute();
        logger.error(
          { emailId: row.id, kind: row.kind, to, attempts: attempt, reason: scrubAddresses(reason) },
          "email could not be delivered; giving up",
        );
        return "failed";
      }
      const nextAttemptAt = later(delay);
      await db
        .updateTable("email_outbox")
        .set({ next_attempt_at: nextAttemptAt, last_error: reason })
        .where("id", "=", row.id)
        .execute();
      logger.warn(
        { emailId: row.id, kind: row.kind, to, attempts: attempt, nextAttemptAt, reason: scrubAddresses(reason) },
        "email delivery failed; will retry",
      );
      return "retry";
    }
    await db
      .updateTable("email_outbox")
      .set({ status: "sent", sent_at: clock.now().toISOString(), last_error: null })
      .where("id", "=", row.id)
      .execute();
    logger.info({ emailId: row.id, kind: row.kind, to, attempts: attempt, via: transport.describe() }, "email sent");
    return "sent";
  }

  /** One message just queued, sent at once, without reading the due rows first. */
  async function deliverQueued(id: string): Promise<DeliveryResult> {
    const row = await claim(id);
    if (!row) return { sent: 0, failed: 0 };
    return (await deliverOne(row)) === "sent" ? { sent: 1, failed: 0 } : { sent: 0, failed: 1 };
  }

  async function deliverBatch(limit: number): Promise<DeliveryResult> {
    const due = await db
      .selectFrom("email_outbox")
      .select("id")
      .where("status", "=", "queued")
      .where("next_attempt_at", "<=", clock.now().toISOString())
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(limit)
      .execute();
    const result: DeliveryResult = { sent: 0, failed: 0 };
    // One row at a time, claimed just before it is sent, so a lease only has to cover one send.
    for (const { id } of due) {
      const row = await claim(id);
      if (!row) continue;
      const outcome = await deliverOne(row);
      if (outcome === "sent") result.sent += 1;
      else result.failed += 1;
    }
    return result;
  }

  let running: Promise<DeliveryResult> | null = null;
  let runAgain = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  function runInBackground() {
    if (stopped) return;
    // A run already under way may have read the due rows before the newest arrived: go again after it.
    if (running) {
      runAgain = true;
      return;
    }
    deliverDue().catch((error: unknown) => logger.warn({ err: error }, "email delivery run failed"));
  }

  /** Runs in this process wait for each other rather than overlap (so `deliverDue` waits for a kick's send). */
  async function oneAtATime(run: () => Promise<DeliveryResult>): Promise<DeliveryResult> {
    while (running) await running.catch(() => undefined);
    const mine = run();
    running = mine;
    try {
      return await mine;
    } finally {
      if (running === mine) running = null;
      if (runAgain) {
        runAgain = false;
        setImmediate(runInBackground);
      }
    }
  }

  /** Sends what is due now. */
  function deliverDue(limit = 20): Promise<DeliveryResult> {
    return oneAtATime(() => deliverBatch(limit));
  }

  return {
    /**
     * Queues a message for sending; says queued false when this order already has one of this kind.
     * Nothing about delivery happens here, so only the database can make it throw.
     */
    async enqueue(message: OutboxMessage): Promise<{ queued: false } | { queued: true; id: string }> {
      const now = clock.now().toISOString();
      const id = randomUUID();
      const inserted = await db
        .insertInto("email_outbox")
        .values({
          id,
          kind: message.kind,
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html,
          order_id: message.orderId ?? null,
          status: "queued",
          next_attempt_at: now,
          last_error: null,
          created_at: now,
          sent_at: null,
        })
        .onConflict((conflict) => conflict.columns(["order_id", "kind"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      const queued = inserted !== undefined;
      logger.debug(
        { emailId: queued ? id : undefined, kind: message.kind, to: maskEmail(message.to), queued },
        queued ? "email queued" : "email already queued for this order",
      );
      return queued ? { queued, id } : { queued };
    },

    deliverDue,

    /** Starts sending in the background, every intervalMs; the timer never keeps the process alive. */
    start(intervalMs = 5000): void {
      stopped = false;
      if (timer) return;
      timer = setInterval(runInBackground, intervalMs);
      timer.unref();
    },

    /** Stops the timer; a run already under way finishes, and kick() does nothing until start(). */
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },

    /**
     * Asks for a delivery straight away (after the current tick), without waiting for it: of the
     * message just queued, or of everything due.
     */
    kick(id?: string): void {
      if (stopped) return;
      if (!id) {
        setImmediate(runInBackground);
        return;
      }
      setImmediate(() => {
        oneAtATime(() => deliverQueued(id)).catch((error: unknown) =>
          logger.warn({ err: error }, "email delivery failed"),
        );
      });
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
