import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "~/ticketing/orders.server";
import { testServices } from "../support/app";
import { runCommand } from "../support/command";
import { createEngine } from "../support/engine";
import { seedSmall } from "../support/seed";

// `npm run refund` as an operator runs it: a process of its own over the site's SQLite file,
// saying what it did, with its exit codes (0 done or already done, 1 refused, 2 bad usage).

const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };

const run = (dataDir: string, args: string[]) =>
  runCommand("refund", args, { DATA_DIR: dataDir, DEMO_CATALOGUE: "off" });

describe("the refund command", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-refund-"));
  let order: Order;
  /** What the order's tickets are called, by seat. */
  let tickets: Map<string, { barcode: string; label: string }>;

  beforeAll(async () => {
    // A paid order of two seats in row B (Band B: £45.00 face value and £2.50 booking fee each).
    const services = await testServices({ DATA_DIR: dataDir });
    try {
      await seedSmall(services);
      const performance = await services.store.db
        .selectFrom("performances")
        .select("id")
        .where("presale_from", "is", null)
        .orderBy("starts_at")
        .executeTakeFirstOrThrow();
      const seats = await services.store.db
        .selectFrom("seats")
        .select(["id", "label"])
        .where("row_name", "=", "B")
        .where("label", "in", ["3", "4"])
        .execute();
      const engine = createEngine(services.store, services.clock);
      const basketId = randomUUID();
      const held = await services.inventory.holdSeats({
        basketId,
        performanceId: performance.id,
        seatIds: seats.map((seat) => seat.id),
      });
      expect(held.ok).toBe(true);
      const placed = await engine.placeAsShown(basketId, { name: "Jo Bloggs", email: "jo@example.com" });
      if (!placed.ok) throw new Error(placed.reason);
      expect(
        await services.payments.pay(placed.order, { method: "card", card: CARD }, { description: "t", returnUrl: "/" }),
      ).toEqual({ kind: "paid" });
      order = (await services.orders.byId(placed.order.id))!;
      const issued = await services.orders.tickets(order.id);
      tickets = new Map(issued.map((ticket) => [ticket.label.replace(/^Stalls, row B, seat /, "B"), ticket]));
    } finally {
      await services.close();
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("says how it is used, exit code 2, when asked without an order or with an unknown option", async () => {
    const bare = await run(dataDir, []);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("Usage: npm run refund -- ORDER");
    const unknown = await run(dataDir, [order.number, "--seats", "B3"]);
    expect(unknown.code).toBe(2);
  }, 60_000);

  it("refuses an unknown order and a ticket not in the order, exit code 1, listing the order's tickets", async () => {
    const missing = await run(dataDir, ["ZZZZZ-99999"]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toContain("No order ZZZZZ-99999.");
    const notHers = await run(dataDir, [order.number, "--tickets", "A1"]);
    expect(notHers.code).toBe(1);
    expect(notHers.stderr).toContain("Not a ticket of this order: A1.");
    expect(notHers.stderr).toContain(`${tickets.get("B3")!.barcode}  B3  Stalls, row B, seat 3`);
  }, 60_000);

  it("refunds one ticket, then says it is already refunded; then the rest of the order", async () => {
    const one = await run(dataDir, [order.number.toLowerCase(), "--tickets", "B3", "--reason", "Buyer unwell"]);
    expect(one.stderr).toBe("");
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`Refunded £47.50 of order ${order.number} (some tickets).`);
    expect(one.stdout).toContain("To the card: £47.50.");
    expect(one.stdout).toContain("Void, its place back on sale: Stalls, row B, seat 3");
    expect(one.stdout).toContain("The rest of the order stands.");

    const again = await run(dataDir, [order.number, "--tickets", tickets.get("B3")!.barcode]);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(again.stdout).toContain(`Order ${order.number} is already refunded: nothing was done.`);

    const rest = await run(dataDir, [order.number]);
    expect(rest.code).toBe(0);
    // The other ticket and the order's transaction fee.
    expect(rest.stdout).toContain(`Refunded ${money(order.total - 4750)} of order ${order.number} (the whole order).`);
    expect(rest.stdout).toContain("Stalls, row B, seat 4");
    expect((await run(dataDir, [order.number])).stdout).toContain("already refunded");

    // The buyer's two emails, written to the outbox folder (no SMTP_URL).
    const emails = readdirSync(join(dataDir, "outbox"))
      .map((name) => readFileSync(join(dataDir, "outbox", name), "utf8"))
      .filter((message) => message.includes("Refund for"));
    expect(emails).toHaveLength(2);
  }, 120_000);
});

function money(minor: number) {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" }).format(minor / 100);
}
