import { mkdtempSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "~/clock";
import { openSqlite, type Store } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { buyerBrowser, payForm } from "../support/browser";
import { smallCatalogue } from "../support/catalogue";
import { smallCatalogueFacts, throughToPayment } from "../support/checkout-journey";
import { insertPromo, insertVoucher } from "../support/money";
import { startServerProcess } from "../support/server-process";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Issue 20, "several processes as one" (decision 0030): real server processes (the production
// build: `npm run build` first) sharing one database, every buyer's requests alternating between
// them as a round-robin balancer would send them. Nothing is sold twice, a single-use code is
// used once, a voucher is never overspent, and availability changed through one process shows
// through the other at once.

type Server = Awaited<ReturnType<typeof startServerProcess>>;
type Buyer = ReturnType<typeof buyerBrowser>;

const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };
// One place taken of the small catalogue's 24 turns a performance from Good to Low availability,
// and a count is never re-read for age during a test: only hearing of the change can show it.
const PROCESS_ENV = { AVAILABILITY_THRESHOLDS: "0.99,0.98", AVAILABILITY_MAX_AGE_SECONDS: "300" };
const CALENDAR = "/shows/test-show/test-hall/calendar";

/** A buyer whose requests go to each server in turn, starting with the `first`-th. */
function alternatingBuyer(servers: Server[], first: number) {
  let turn = first;
  return buyerBrowser((path) => servers[turn++ % servers.length]!.url(path));
}

const lowCount = (html: string) => html.split("Low availability").length - 1;

/**
 * The calendar's HTML, on a connection of its own: a cluster's primary hands each new connection
 * to the next worker, so requests in turn reach each worker in turn (fetch would keep one alive).
 */
async function calendarAt(server: Server) {
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(server.url(CALENDAR), { agent: false }, resolve).once("error", reject),
  );
  expect(response.statusCode).toBe(200);
  let html = "";
  for await (const chunk of response) html += String(chunk);
  return html;
}

async function seed(store: Store) {
  // The processes read the real clock: the catalogue is imported now, so it is on sale now.
  await importCatalogue(store, smallCatalogue(), fixedClock(systemClock.now()));
}

describe.runIf(DIALECTS.includes("postgres"))("two server processes on one PostgreSQL database", () => {
  let store: TestStore;
  let servers: Server[] = [];

  beforeAll(async () => {
    store = await createTestStore("postgres", 5);
    await seed(store);
    servers = await Promise.all([0, 1].map(() => startServerProcess({ DATABASE_URL: store.location, ...PROCESS_ENV })));
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all(servers.map((server) => server.stop()));
    await store.drop();
    expect(codes).toEqual([0, 0]);
  });

  it("a hold taken through one process shows on the other's calendar at once, not after the cache's age", async () => {
    const [first, second] = servers as [Server, Server];
    const { performanceId, seat } = await smallCatalogueFacts(store);
    // The second process has counted the month and keeps the counts.
    const before = lowCount(await calendarAt(second));
    expect(lowCount(await calendarAt(second))).toBe(before);

    const buyer = buyerBrowser(first.url);
    const held = await buyer.post(`/shows/test-show/test-hall/tickets/${performanceId}`, [
      ["intent", "select"],
      ["seat", String(seat("B9"))],
    ]);
    expect(held.status).toBe(302);
    await expect
      .poll(async () => lowCount(await calendarAt(second)), { timeout: 2_000, interval: 20 })
      .toBe(before + 1);
  });

  it("the last seat: six buyers press for it at once, one holds it and pays, the rest are told it has gone", async () => {
    const buyers = Array.from({ length: 6 }, (_, index) => alternatingBuyer(servers, index));
    const attempts = await Promise.allSettled(
      buyers.map((buyer, index) => throughToPayment(buyer, store, ["A9"], `last${index}@example.com`)),
    );
    const winners = attempts.flatMap((attempt, index) => (attempt.status === "fulfilled" ? [index] : []));
    expect(winners).toHaveLength(1);
    const paid = await buyers[winners[0]!]!.pay(CARD);
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");

    const { performanceId, seat } = await smallCatalogueFacts(store);
    const claims = await store.db
      .selectFrom("seat_claims")
      .select(["status", "order_id"])
      .where("performance_id", "=", performanceId)
      .where("seat_id", "=", seat("A9"))
      .execute();
    expect(claims).toEqual([{ status: "sold", order_id: expect.any(String) }]);
    const tickets = await store.db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .select("orders.email")
      .where("orders.status", "=", "paid")
      .where("orders.email", "like", "last%")
      .execute();
    expect(tickets).toEqual([{ email: `last${winners[0]}@example.com` }]);
  });

  /** Buyers at the payment page with `apply` done, then all pressing Pay at once on alternating processes. */
  async function raceToPay(prefix: string, seats: string[], apply: (buyer: Buyer) => Promise<Response>) {
    const buyers = seats.map((_, index) => alternatingBuyer(servers, index));
    await Promise.all(
      buyers.map(async (buyer, index) => {
        await throughToPayment(buyer, store, [seats[index]!], `${prefix}${index}@example.com`);
        expect((await apply(buyer)).headers.get("Location")).toBe("/checkout/payment");
      }),
    );
    const shown = await Promise.all(
      buyers.map(async (buyer) => payForm(await (await buyer.get("/checkout/payment")).text())),
    );
    const responses = await Promise.all(
      buyers.map((buyer, index) => buyer.post("/checkout/payment", { ...shown[index]!.fields, ...CARD })),
    );
    const confirmed = responses.filter((response) => response.headers.get("Location") === "/checkout/confirmation");
    // The others were stopped before any charge, with the new total in front of them.
    for (const response of responses) if (!confirmed.includes(response)) expect(response.status).toBe(409);
    const payments = await store.db
      .selectFrom("order_payments")
      .innerJoin("orders", "orders.id", "order_payments.order_id")
      .select("order_payments.amount")
      .where("order_payments.status", "=", "succeeded")
      .where("orders.email", "like", `${prefix}%`)
      .execute();
    return { confirmed: confirmed.length, charges: payments.length };
  }

  it("a single-use promo code: four buyers apply it and press Pay at once; one order gets it", async () => {
    const promoId = await insertPromo(store, { code: "ONEONLY", usage_limit: 1, percent: 50 });
    const { confirmed, charges } = await raceToPay("promo", ["A3", "A4", "A5", "A6"], (buyer) =>
      buyer.post("/checkout/payment", { intent: "promo", promoCode: "ONEONLY" }),
    );
    expect(confirmed).toBe(1);
    expect(charges).toBe(1);
    const promo = await store.db
      .selectFrom("promo_codes")
      .select("used_count")
      .where("id", "=", promoId)
      .executeTakeFirstOrThrow();
    expect(promo.used_count).toBe(1);
  });

  it("a gift voucher that covers one order: four buyers put it towards theirs and press Pay at once; it is spent once", async () => {
    const voucherId = await insertVoucher(store, { number: "GV8888000001", redemptionCode: "TWOPRO", balance: 1000 });
    const { confirmed, charges } = await raceToPay("voucher", ["B3", "B4", "B5", "B6"], (buyer) =>
      buyer.post("/checkout/payment", { intent: "voucher", voucherNumber: "GV8888000001", voucherCode: "TWOPRO" }),
    );
    expect(confirmed).toBe(1);
    expect(charges).toBe(1);
    const voucher = await store.db
      .selectFrom("vouchers")
      .select("balance")
      .where("id", "=", voucherId)
      .executeTakeFirstOrThrow();
    expect(voucher.balance).toBe(0);
    const movements = await store.db
      .selectFrom("voucher_movements")
      .select("amount")
      .where("voucher_id", "=", voucherId)
      .execute();
    expect(movements.reduce((sum, movement) => sum + movement.amount, 0)).toBe(-1000);
  });
});

/** Opens a page as a browser without script does, following redirects: where it ends, and its HTML. */
async function open(buyer: Buyer, path: string) {
  let response = await buyer.get(path);
  let at = path;
  for (let hops = 0; hops < 5 && response.headers.get("Location"); hops += 1) {
    await response.arrayBuffer();
    const next = new URL(response.headers.get("Location")!, "http://site");
    at = next.pathname + next.search;
    response = await buyer.get(at);
  }
  return { at, html: await response.text() };
}

/** Two server processes on a fresh PostgreSQL database with a waiting room of `activeBuyers`, for the describe block it is called in. */
function twoProcessesWithQueue(activeBuyers: number) {
  const shared = { store: undefined as unknown as TestStore, servers: [] as Server[] };
  beforeAll(async () => {
    shared.store = await createTestStore("postgres", 5);
    await seed(shared.store);
    shared.servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess({ DATABASE_URL: shared.store.location, QUEUE_ACTIVE_BUYERS: String(activeBuyers) }),
      ),
    );
  }, 60_000);
  afterAll(async () => {
    const codes = await Promise.all(shared.servers.map((server) => server.stop()));
    await shared.store.drop();
    expect(codes).toEqual([0, 0]);
  });
  return shared;
}

describe.runIf(DIALECTS.includes("postgres"))("two server processes sharing one waiting room on PostgreSQL", () => {
  const shared = twoProcessesWithQueue(3);

  const placeIn = (html: string) => /Your place in the queue: (\d+) of (\d+)/.exec(html)?.slice(1, 3).map(Number);

  it("ten buyers in turn, each request to either process: three in, seven in order, the next in as one leaves", async () => {
    const { performanceId } = await smallCatalogueFacts(shared.store);
    const tickets = `/shows/test-show/test-hall/tickets/${performanceId}`;
    const buyers = Array.from({ length: 10 }, (_, index) => alternatingBuyer(shared.servers, index));
    const pages: { at: string; html: string }[] = [];
    for (const buyer of buyers) pages.push(await open(buyer, tickets));
    expect(pages.slice(0, 3).map((page) => [page.at, placeIn(page.html)])).toEqual(
      Array.from({ length: 3 }, () => [tickets, undefined]),
    );
    // The door answers the others at the tickets page's own address, each with the next place.
    expect(pages.slice(3).map((page) => [page.at, placeIn(page.html)])).toEqual(
      Array.from({ length: 7 }, (_, index) => [tickets, [index + 1, index + 1]]),
    );
    // Asking again through the other process keeps each place. How many wait is as that process
    // last read the line (at most a second ago): at least as many as up to the buyer's own place.
    const again = [];
    for (const [index, buyer] of buyers.slice(3).entries())
      again.push(placeIn((await open(buyer, pages[index + 3]!.at)).html)!);
    expect(again.map(([place]) => place)).toEqual(Array.from({ length: 7 }, (_, index) => index + 1));
    for (const [place, waiting] of again) expect(waiting).toBeGreaterThanOrEqual(place!);
    for (const [, waiting] of again) expect(waiting).toBeLessThanOrEqual(7);

    // The first holds a seat and releases it: the fourth goes in on their next ask, the fifth is next.
    const held = await buyers[0]!.post(tickets, [
      ["intent", "select"],
      ["seat", String((await smallCatalogueFacts(shared.store)).seat("C9"))],
    ]);
    expect(held.status).toBe(302);
    expect((await buyers[0]!.post("/checkout/hold", { intent: "release" })).status).toBe(302);
    // Each process reads the line, and lets in whoever's turn it is, at most once a second.
    await expect
      .poll(async () => placeIn((await open(buyers[3]!, pages[3]!.at)).html) ?? "in", { timeout: 5_000, interval: 250 })
      .toBe("in");
    await expect
      .poll(async () => placeIn((await open(buyers[4]!, pages[4]!.at)).html)?.[0], { timeout: 5_000, interval: 250 })
      .toBe(1);
  });
});

describe("WEB_CONCURRENCY=2: one server, two worker processes, one SQLite file", () => {
  let server: Server;
  let store: Store;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "box-office-cluster-"));
    store = openSqlite(join(dataDir, "box-office.sqlite"));
    await migrateToLatest(store.db);
    await seed(store);
    server = await startServerProcess({ DATA_DIR: dataDir, WEB_CONCURRENCY: "2", ...PROCESS_ENV });
  }, 60_000);

  afterAll(async () => {
    // Already stopped by the last test, unless it failed first.
    await server?.stop();
    await store.close();
  });

  const workersAnswering = () =>
    new Set(
      server
        .output()
        .stdout.split("\n")
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => /"worker":(\d+)/.exec(line)?.[1]),
    );

  it("both workers serve, and a hold taken through one shows through the other at once", async () => {
    await expect.poll(() => server.output().stdout, { timeout: 20_000 }).toContain('"msg":"all workers listening"');
    const before = lowCount(await calendarAt(server));
    expect(lowCount(await calendarAt(server))).toBe(before);
    await expect.poll(() => workersAnswering().size, { timeout: 2_000, interval: 20 }).toBe(2);

    const { performanceId, seat } = await smallCatalogueFacts(store);
    const held = await buyerBrowser(server.url).post(`/shows/test-show/test-hall/tickets/${performanceId}`, [
      ["intent", "select"],
      ["seat", String(seat("B9"))],
    ]);
    expect(held.status).toBe(302);
    // Two requests in a row reach both workers: each must count the new hold.
    await expect
      .poll(async () => [lowCount(await calendarAt(server)), lowCount(await calendarAt(server))], {
        timeout: 2_000,
        interval: 20,
      })
      .toEqual([before + 1, before + 1]);
  });

  it("a worker that dies is replaced, and SIGTERM stops them all cleanly", async () => {
    const pid = Number(/"worker":1,"pid":(\d+)[^\n]*"msg":"listening"/.exec(server.output().stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    await expect
      .poll(() => server.output().stdout, { timeout: 10_000 })
      .toContain('"msg":"worker died; starting another"');
    await expect.poll(() => server.output().stdout, { timeout: 20_000 }).toMatch(/"worker":3,[^\n]*"msg":"listening"/);
    for (let request = 0; request < 4; request += 1) expect((await fetch(server.url("/healthz"))).status).toBe(200);

    expect(await server.stop()).toBe(0);
    const { stdout } = server.output();
    expect(stdout.match(/"worker":\d+,[^\n]*"msg":"stopped"/g)).toHaveLength(2);
    expect(stdout.trim().split("\n").at(-1)).toContain('"msg":"stopped"');
  }, 40_000);
});

// Issue 41: an admitted buyer's session and CSRF cookies copied into six clients, each of whose
// requests goes to either process, all asking for the tickets page and then each for a seat of
// its own at once. The place owns one basket: every copy is handed it, so one basket holds
// seats, never more than one order's limit, and the room still counts one buyer in.
describe.runIf(DIALECTS.includes("postgres"))("one place, one basket across two processes on PostgreSQL", () => {
  const shared = twoProcessesWithQueue(2);
  const placeIn = (html: string) => /Your place in the queue: (\d+) of (\d+)/.exec(html)?.slice(1, 3).map(Number);

  it("six copies of one admitted buyer's cookies, pressing at once: one basket holds seats", async () => {
    const { performanceId, seat } = await smallCatalogueFacts(shared.store);
    const tickets = `/shows/test-show/test-hall/tickets/${performanceId}`;
    const admitted = alternatingBuyer(shared.servers, 0);
    expect((await open(admitted, tickets)).at).toBe(tickets);
    const copies = Array.from({ length: 6 }, (_, index) => {
      const copy = alternatingBuyer(shared.servers, index);
      for (const name of ["session", "csrf"]) copy.cookies.set(name, admitted.cookies.get(name)!);
      return copy;
    });
    expect((await Promise.all(copies.map((copy) => open(copy, tickets)))).map((page) => page.at)).toEqual(
      copies.map(() => tickets),
    );
    const seats = ["B1", "B2", "B3", "B4", "B5", "B6"];
    await Promise.all(
      copies.map(async (copy, index) => {
        const response = await copy.post(tickets, [
          ["intent", "select"],
          ["seat", String(seat(seats[index]!))],
        ]);
        await response.arrayBuffer();
      }),
    );
    const held = await shared.store.db
      .selectFrom("seat_claims")
      .innerJoin("holds", "holds.id", "seat_claims.hold_id")
      .select("holds.basket_id")
      .where("seat_claims.status", "=", "held")
      .execute();
    expect(held.length).toBeGreaterThan(0);
    expect(new Set(held.map((claim) => claim.basket_id)).size).toBe(1);
    const { seat_limit } = await shared.store.db
      .selectFrom("performances")
      .select("seat_limit")
      .where("id", "=", performanceId)
      .executeTakeFirstOrThrow();
    expect(held.length).toBeLessThanOrEqual(seat_limit);
    expect(new Set(copies.map((copy) => copy.cookies.get("basket"))).size).toBe(1);
    // One buyer in: a second gets the other place, a third waits.
    expect((await open(alternatingBuyer(shared.servers, 1), tickets)).at).toBe(tickets);
    expect(placeIn((await open(alternatingBuyer(shared.servers, 0), tickets)).html)).toEqual([1, 1]);
  });
});
