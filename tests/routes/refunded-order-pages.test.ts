import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "~/ticketing/orders.server";
import { startServer } from "../support/app";
import { registerCustomer } from "../support/customers";
import { seedSmall } from "../support/seed";
import { firstOnSalePerformanceId, paidETicketOrder } from "../support/staff";

// A refunded order's own pages, from the production build: the confirmation and the e-tickets
// say what was refunded, and a refunded ticket shows VOID where its barcode was.

describe("a refunded order's pages", () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server.close());

  /** Seats of row B bought for e-tickets, and paid. */
  const paidOrder = async (labels: string[], customerId: string | null = null): Promise<Order> =>
    paidETicketOrder(server.services, await firstOnSalePerformanceId(server.services.store), "B", labels, {
      name: "Jo Bloggs",
      email: "jo@example.com",
      customerId,
    });

  const page = async (path: string, cookie?: string) => {
    const response = await fetch(server.url(path), { headers: cookie ? { cookie } : {} });
    expect(response.status).toBe(200);
    return response.text();
  };
  const confirmationOf = async (order: Order) => {
    const cookie = (await server.services.sessions.orderCookie.serialize(order.id)).split(";")[0]!;
    return page("/checkout/confirmation", cookie);
  };

  it("one ticket refunded: both pages say part of the order was, and that ticket is void without its barcode", async () => {
    const order = await paidOrder(["5", "6"]);
    const [five, six] = await server.services.orders.tickets(order.id);
    const before = await page(`/e-tickets/${order.access_key}`);
    expect(before).toContain(five!.barcode);
    expect(before).not.toContain("VOID");

    const refunded = await server.services.refunds.refund(order.number, { tickets: [five!.barcode] });
    expect(refunded).toMatchObject({ ok: true, outcome: "refunded" });

    const tickets = await page(`/e-tickets/${order.access_key}`);
    expect(tickets).toContain("Part of this order has been refunded: £47.50 given back.");
    expect(tickets).toContain("VOID: refunded");
    expect(tickets).not.toContain(five!.barcode);
    expect(tickets).toContain(six!.barcode);
    expect(tickets.match(/<svg/g)).toHaveLength(1);

    const confirmation = await confirmationOf(order);
    expect(confirmation).toContain("Part of this order has been refunded: £47.50 given back.");
    expect(confirmation).toContain("Stalls, row B, seat 5 (refunded)");
    expect(confirmation).not.toContain("Stalls, row B, seat 6 (refunded)");
  });

  it("the account's list of orders marks a refunded ticket and says what went back", async () => {
    const registered = await registerCustomer(server.services.auth, {
      email: "refunded@example.com",
      password: "correct horse battery staple",
      firstName: "Jo",
      lastName: "Bloggs",
    });
    const order = await paidOrder(["8", "9"], registered.customer.id);
    const [eight] = await server.services.orders.tickets(order.id);
    expect(await server.services.refunds.refund(order.number, { tickets: [eight!.barcode] })).toMatchObject({
      ok: true,
    });
    const signedIn = (await server.services.sessions.authCookie.serialize(registered.token)).split(";")[0]!;
    const account = await page("/account", signedIn);
    expect(account).toContain(order.number);
    expect(account).toContain("Stalls, row B, seat 8 (refunded)");
    expect(account).toContain("Stalls, row B, seat 9");
    expect(account).not.toContain("Stalls, row B, seat 9 (refunded)");
    expect(account).toContain("Part of this order has been refunded: £47.50 given back.");
  });

  it("the whole order refunded: the pages say so, and no barcode is left", async () => {
    const order = await paidOrder(["7"]);
    expect(await server.services.refunds.refund(order.number)).toMatchObject({ ok: true, outcome: "refunded" });
    const tickets = await page(`/e-tickets/${order.access_key}`);
    expect(tickets).toContain("This order has been refunded");
    expect(tickets).not.toContain("<svg");
    expect(await confirmationOf(order)).toContain("This order has been refunded");
  });
});
