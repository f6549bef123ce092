import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { openPostgres, openSqlite, type Store } from "~/db/connection.server";
import {
  createOutbox,
  DEFAULT_RETRY_DELAYS_MS,
  type MailMessage,
  type MailTransport,
  type OutboxMessage,
} from "~/use-cases/email/outbox.server";
import { createLogger } from "~/logging/logger.server";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The outbox over a real store: an email is sent once however often the order completes and
// however many processes deliver, a failed delivery comes back on schedule and is finally given up
// with an error that names the email but not its content, and nothing about delivery can fail the
// enqueue that an order's completion waits for.

const NOON = "2026-11-23T12:00:00.000Z";
const FROM = "Box Office <tickets@example.com>";

function message(overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    kind: "orderConfirmation",
    to: "jo.bloggs@example.com",
    subject: "Your tickets for Hamlet: order BO-1",
    text: "Secret e-tickets link: https://example.com/e-tickets/SECRET",
    html: "<p>Secret e-tickets link</p>",
    orderId: "order-1",
    ...overrides,
  };
}

/** Records what it sends; `fail` makes every send reject until `recover`; `delayMs` makes sends slow. */
function fakeTransport(options: { delayMs?: number } = {}) {
  const sent: MailMessage[] = [];
  let failure: Error | null = null;
  let inFlight = 0;
  let mostInFlight = 0;
  const transport: MailTransport = {
    async send(mail) {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (failure) throw failure;
        sent.push(mail);
      } finally {
        inFlight -= 1;
      }
    },
    describe: () => "fake",
  };
  return {
    transport,
    sent,
    mostInFlight: () => mostInFlight,
    fail(error = new Error("421 4.3.0 <jo.bloggs@example.com>: try again later")) {
      failure = error;
    },
    recover() {
      failure = null;
    },
  };
}

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: createLogger("debug", destination), lines };
}

async function waitFor(condition: () => boolean, timeoutMs = 2000) {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.each(DIALECTS)("the email outbox on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(NOON);

  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());
  beforeEach(async () => {
    clock.set(NOON);
    await store.db.deleteFrom("email_outbox").execute();
  });

  function build(overrides: { store?: Store; transport?: MailTransport; retryDelaysMs?: number[] } = {}) {
    const fake = fakeTransport();
    const { logger, lines } = capturingLogger();
    const outbox = createOutbox({
      store: overrides.store ?? store,
      clock,
      transport: overrides.transport ?? fake.transport,
      logger,
      retryDelaysMs: overrides.retryDelaysMs,
      from: FROM,
    });
    return { outbox, fake, lines };
  }

  const rows = () => store.db.selectFrom("email_outbox").selectAll().orderBy("created_at").orderBy("id").execute();

  it("queues an email due at once, and sends it exactly once", async () => {
    const { outbox, fake } = build();
    expect(await outbox.enqueue(message())).toMatchObject({ queued: true });
    expect(await rows()).toMatchObject([
      { status: "queued", next_attempt_at: NOON, created_at: NOON, attempts: 0, sent_at: null, order_id: "order-1" },
    ]);

    clock.advance(1000);
    expect(await outbox.deliverDue()).toEqual({ sent: 1, failed: 0 });
    expect(fake.sent).toEqual([
      {
        from: FROM,
        to: "jo.bloggs@example.com",
        subject: "Your tickets for Hamlet: order BO-1",
        text: message().text,
        html: message().html,
      },
    ]);
    expect(await rows()).toMatchObject([{ status: "sent", sent_at: "2026-11-23T12:00:01.000Z", attempts: 1 }]);

    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 0 });
    expect(fake.sent).toHaveLength(1);
  });

  it("sends one confirmation per order, however often the order completes", async () => {
    const { outbox, fake } = build();
    expect(await outbox.enqueue(message())).toMatchObject({ queued: true });
    expect(await outbox.enqueue(message({ subject: "again" }))).toEqual({ queued: false });
    // Another kind for the same order, and emails for no order at all, are separate emails.
    expect(await outbox.enqueue(message({ kind: "reminder" }))).toMatchObject({ queued: true });
    expect(await outbox.enqueue(message({ orderId: null, kind: "notice" }))).toMatchObject({ queued: true });
    expect(await outbox.enqueue(message({ orderId: undefined, kind: "notice" }))).toMatchObject({ queued: true });

    expect(await outbox.deliverDue()).toEqual({ sent: 4, failed: 0 });
    expect(fake.sent.filter((mail) => mail.subject === "again")).toHaveLength(0);
    expect(await outbox.enqueue(message())).toEqual({ queued: false });
    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 0 });
    expect(fake.sent).toHaveLength(4);
  });

  it("sends the oldest first and no more than the limit per run", async () => {
    const { outbox, fake } = build();
    for (const order of ["a", "b", "c"]) {
      await outbox.enqueue(message({ orderId: order, subject: order }));
      clock.advance(1);
    }
    expect(await outbox.deliverDue(2)).toEqual({ sent: 2, failed: 0 });
    expect(fake.sent.map((mail) => mail.subject)).toEqual(["a", "b"]);
    expect(await outbox.deliverDue(2)).toEqual({ sent: 1, failed: 0 });
    expect(fake.sent.map((mail) => mail.subject)).toEqual(["a", "b", "c"]);
  });

  it("retries a failed delivery after 30 s, 2 min, 10 min, 1 h and 6 h, then gives up with an error", async () => {
    const { outbox, fake, lines } = build();
    fake.fail();
    await outbox.enqueue(message());

    let at = new Date(NOON).getTime();
    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 1 });
    for (const [index, delay] of DEFAULT_RETRY_DELAYS_MS.entries()) {
      const [row] = await rows();
      expect(row).toMatchObject({ status: "queued", attempts: index + 1 });
      expect(row!.next_attempt_at).toBe(new Date(at + delay).toISOString());
      expect(row!.last_error).toContain("try again later");
      // Not a moment early…
      clock.set(new Date(at + delay - 1));
      expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 0 });
      // …and on time.
      at += delay;
      clock.set(new Date(at));
      expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 1 });
    }
    expect(await rows()).toMatchObject([
      { status: "failed", attempts: DEFAULT_RETRY_DELAYS_MS.length + 1, sent_at: null },
    ]);

    clock.advance(24 * 3_600_000);
    fake.recover();
    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 0 });
    expect(fake.sent).toHaveLength(0);

    const [row] = await rows();
    const errors = lines.filter((line) => line.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ emailId: row!.id, to: "j***@example.com", attempts: 6 });
    expect(lines.filter((line) => line.level === "warn")).toHaveLength(DEFAULT_RETRY_DELAYS_MS.length);
    // Support can find the email by its id; the logs never hold the address, the link or the body.
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain("jo.bloggs@example.com");
    expect(logged).not.toContain("SECRET");
    expect(logged).not.toContain("Secret e-tickets link");
  });

  it("sends on a later attempt once the mail server recovers, with custom delays", async () => {
    const { outbox, fake } = build({ retryDelaysMs: [1000] });
    fake.fail();
    await outbox.enqueue(message());
    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 1 });
    expect(await rows()).toMatchObject([{ next_attempt_at: "2026-11-23T12:00:01.000Z" }]);
    fake.recover();
    clock.advance(1000);
    expect(await outbox.deliverDue()).toEqual({ sent: 1, failed: 0 });
    expect(await rows()).toMatchObject([{ status: "sent", attempts: 2, sent_at: "2026-11-23T12:00:01.000Z" }]);
  });

  it("a transport that throws at once does not escape the delivery run", async () => {
    const throwing: MailTransport = {
      send: () => {
        throw new Error("synchronous failure");
      },
      describe: () => "throwing",
    };
    const { outbox } = build({ transport: throwing });
    await outbox.enqueue(message());
    expect(await outbox.deliverDue()).toEqual({ sent: 0, failed: 1 });
    expect(await rows()).toMatchObject([{ status: "queued", last_error: "synchronous failure" }]);
  });

  it("two processes delivering at the same moment send each email once", async () => {
    // A second connection pool stands in for a second server process.
    const other = dialect === "sqlite" ? openSqlite(store.location) : openPostgres(store.location, 5);
    try {
      const slowA = fakeTransport({ delayMs: 5 });
      const slowB = fakeTransport({ delayMs: 5 });
      const first = build({ transport: slowA.transport });
      const second = build({ store: other, transport: slowB.transport });
      for (let index = 0; index < 12; index += 1) {
        await first.outbox.enqueue(message({ orderId: `order-${index}`, subject: `email ${index}` }));
      }
      const results = await Promise.all([
        first.outbox.deliverDue(),
        second.outbox.deliverDue(),
        first.outbox.deliverDue(),
        second.outbox.deliverDue(),
      ]);
      const subjects = [...slowA.sent, ...slowB.sent].map((mail) => mail.subject).sort();
      expect(subjects).toEqual(Array.from({ length: 12 }, (_, index) => `email ${index}`).sort());
      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(12);
      expect((await rows()).every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("runs in one process wait for each other instead of overlapping", async () => {
    const slow = fakeTransport({ delayMs: 5 });
    const { outbox } = build({ transport: slow.transport });
    for (let index = 0; index < 4; index += 1) await outbox.enqueue(message({ orderId: `order-${index}` }));
    const results = await Promise.all([outbox.deliverDue(), outbox.deliverDue(), outbox.deliverDue()]);
    expect(slow.mostInFlight()).toBe(1);
    expect(slow.sent).toHaveLength(4);
    expect(results.map((result) => result.sent)).toEqual([4, 0, 0]);
  });

  it("kick() sends a new email within a moment, without the caller waiting", async () => {
    const slow = fakeTransport({ delayMs: 20 });
    const { outbox } = build({ transport: slow.transport });
    await outbox.enqueue(message());
    outbox.kick();
    // Returned before the (slow) send could have finished.
    expect(slow.sent).toHaveLength(0);
    await waitFor(() => slow.sent.length === 1);
    expect(slow.sent).toHaveLength(1);

    // An email queued while a run is already under way is not left for the next tick.
    await outbox.enqueue(message({ orderId: "order-2" }));
    outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await outbox.enqueue(message({ orderId: "order-3" }));
    outbox.kick();
    await waitFor(() => slow.sent.length === 3);
    expect(slow.sent).toHaveLength(3);
  });

  it("kick(id) sends the email just queued at once, and a batch run beside it does not send it again", async () => {
    const slow = fakeTransport({ delayMs: 20 });
    const { outbox } = build({ transport: slow.transport });
    const queued = await outbox.enqueue(message());
    if (!queued.queued) throw new Error("not queued");
    outbox.kick(queued.id);
    // A run asked for meanwhile waits for the kick's send (or makes it): either way, it has gone.
    await new Promise((resolve) => setImmediate(resolve));
    await outbox.deliverDue();
    expect(slow.sent).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slow.sent).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: "sent", attempts: 1 }]);
    // Already sent: asking again sends nothing.
    outbox.kick(queued.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slow.sent).toHaveLength(1);
  });

  it("start() delivers in the background until stop()", async () => {
    const { outbox, fake } = build();
    await outbox.enqueue(message());
    outbox.start(10);
    try {
      await waitFor(() => fake.sent.length === 1);
      expect(fake.sent).toHaveLength(1);
    } finally {
      outbox.stop();
    }
    clock.advance(1);
    await outbox.enqueue(message({ orderId: "order-2" }));
    outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.sent).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: "sent" }, { status: "queued" }]);
  });
});
