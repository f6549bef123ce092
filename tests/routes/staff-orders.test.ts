import { randomUUID } from "node:crypto";
import { JSDOM } from "jsdom";
import { beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import type { Order } from "~/ticketing/orders.server";
import { buyerBrowser, type BuyerBrowser } from "../support/browser";
import {
  expectNotFoundEverywhere,
  paidETicketOrder,
  paymentReference,
  signedInStaff,
  type StaffServer,
  useStaffServer,
} from "../support/staff";

// The box office's orders pages (issue 55 item 3, decision 0061) from the production build, as a
// browser without script uses them: the search, an order's page, a refund through the sandbox
// provider (once, however often it is asked for; a ticket used at the door only when the box
// office says it knows), the confirmation sent again; and the 404 a door account gets.

/** Band B: £45.00 face value and £2.50 booking fee. */
const BAND_B_PRICE = 4750;

const documentOf = (html: string) => new JSDOM(html).window.document;
const textOf = (node: { textContent: string | null } | null | undefined) =>
  node?.textContent?.replace(/\s+/g, " ").trim() ?? "";

describe("the box office's orders pages", () => {
  let server: StaffServer;
  let performanceId: string;
  const clock = fixedClock(new Date());
  const marker = randomUUID().slice(0, 8);
  /** The next seat of each row no test has bought yet (1, 2 and 10 of each are kept for access or promotions). */
  const nextSeat = { A: 3, B: 3 };

  useStaffServer(clock, (made) => {
    ({ server, performanceId } = made);
  });

  /**
   * Seats of a row (the next free ones; row B is band B) bought for e-tickets by this customer,
   * and paid by card.
   */
  function paidOrder(
    count: number,
    {
      row = "A",
      customer = { name: "Jo Bloggs", email: "jo@example.com" },
    }: { row?: "A" | "B"; customer?: { name: string; email: string } } = {},
  ): Promise<Order> {
    const labels = Array.from({ length: count }, () => String(nextSeat[row]++));
    return paidETicketOrder(server.services, performanceId, row, labels, customer);
  }

  let boxOffice: Awaited<ReturnType<typeof signedInStaff>>;
  beforeAll(async () => {
    boxOffice = await signedInStaff(server, "boxOffice");
  });

  async function page(browser: BuyerBrowser, path: string) {
    const response = await browser.get(path);
    expect(response.status, path).toBe(200);
    return documentOf(await response.text());
  }

  /** Posts a form of the order's page and follows its redirect back to it. */
  async function postAndFollow(number: string, fields: [string, string][]) {
    const answer = await boxOffice.browser.post(`/staff/orders/${number}`, fields);
    expect(answer.status).toBe(303);
    const location = answer.headers.get("Location")!;
    expect(location.startsWith(`/staff/orders/${number}?`)).toBe(true);
    return { location, document: await page(boxOffice.browser, location) };
  }

  const sandboxRefunds = async (order: Order) =>
    server.services.store.db
      .selectFrom("sandbox_refunds")
      .select(["amount"])
      .where("reference", "=", await paymentReference(server.services, order))
      .execute();

  const ticketRow = (document: Document, ticketId: string) => document.querySelector(`tr[data-ticket="${ticketId}"]`);
  /** What the status region says, a paragraph after another. */
  const status = (document: Document) =>
    [...document.querySelectorAll('#order-outcome[role="status"] p')].map((paragraph) => textOf(paragraph)).join(" ");

  it("lists Orders on the start page for the box office, and not for the door", async () => {
    const start = await page(boxOffice.browser, "/staff");
    expect(textOf(start.querySelector('a[href="/staff/orders"]'))).toBe("Orders");
    const door = await signedInStaff(server, "door");
    expect((await page(door.browser, "/staff")).querySelector('a[href="/staff/orders"]')).toBeNull();
  });

  it("finds orders by number however it is typed, by email in any case, and by part of the name", async () => {
    const customer = { name: `Ada Lovelace${marker}`, email: `ada.${marker}@example.com` };
    const first = await paidOrder(1, { customer });
    clock.advance(60_000);
    const second = await paidOrder(1, { customer });
    const numbersOf = (document: Document) =>
      [...document.querySelectorAll("table tbody tr th[scope=row] a")].map((link) => link.textContent);

    const typed = encodeURIComponent(` ${first.number.toLowerCase().replace("-", " ")} `);
    const byNumber = await page(boxOffice.browser, `/staff/orders?q=${typed}`);
    expect(numbersOf(byNumber)).toEqual([first.number]);
    const row = byNumber.querySelector("table tbody tr")!;
    expect(row.querySelector("a")?.getAttribute("href")).toBe(`/staff/orders/${first.number}`);
    const cells = [...row.querySelectorAll("td")].map((cell) => textOf(cell));
    expect(cells[0]).toBe(customer.name);
    expect(cells[1]).toBe(customer.email);
    expect(cells[2]).toMatch(/^Test Show, /);
    expect(cells[3]).toBe("Paid");
    expect(cells[4]).toBe(`£${(first.total / 100).toFixed(2)}`);
    expect(textOf(byNumber.querySelector("caption"))).toContain("newest first");

    const byEmail = await page(
      boxOffice.browser,
      `/staff/orders?q=${encodeURIComponent(customer.email.toUpperCase())}`,
    );
    expect(numbersOf(byEmail)).toEqual([second.number, first.number]);
    const byName = await page(boxOffice.browser, `/staff/orders?q=${encodeURIComponent(`lovelace${marker}`)}`);
    expect(numbersOf(byName)).toEqual([second.number, first.number]);

    const none = await page(boxOffice.browser, `/staff/orders?q=nobody-${marker}`);
    expect(none.querySelector("table")).toBeNull();
    expect(textOf(none.querySelector('[role="status"]'))).toBe(`No orders match ‘nobody-${marker}’.`);

    const empty = await page(boxOffice.browser, "/staff/orders?q=+");
    expect(textOf(empty.querySelector(".error-summary"))).toContain(
      "Enter an order number, email address or name, in no more than 200 characters.",
    );
    const form = empty.querySelector('form[role="search"]')!;
    expect(form.getAttribute("method")).toBe("get");
    expect(textOf(form.querySelector('label[for="q"]'))).toBe("Order number, email or name");
  });

  it("shows an order: its tickets with band, price, code and state, its payment and its email", async () => {
    const order = await paidOrder(2, { row: "B" });
    const tickets = await server.services.orders.tickets(order.id);
    const document = await page(boxOffice.browser, `/staff/orders/${order.number.toLowerCase()}`);
    expect(textOf(document.querySelector("h1"))).toBe(`Order ${order.number}`);
    const details = textOf(document.querySelector("dl"));
    for (const shown of ["Paid", "Jo Bloggs", "jo@example.com", "Test Show"]) expect(details).toContain(shown);
    for (const ticket of tickets) {
      const row = ticketRow(document, ticket.id)!;
      expect(textOf(row.querySelector("th"))).toBe(ticket.label);
      const cells = [...row.querySelectorAll("td")].map((cell) => textOf(cell));
      expect(cells[0]).toMatch(/^Band B, /);
      expect(cells[1]).toBe("£47.50");
      expect(cells[2]).toBe(ticket.barcode);
      expect(cells[3]).toBe("Valid");
    }
    const paymentTable = [...document.querySelectorAll("table")].find((table) =>
      textOf(table.querySelector("caption")).startsWith("The order's payments"),
    )!;
    expect(textOf(paymentTable.querySelector("tbody"))).toContain("Payment sandbox");
    expect(textOf(paymentTable.querySelector("tbody"))).toContain("Card ending 4242");
    expect(textOf(paymentTable.querySelector("tbody"))).toContain("Taken");
    const emailTable = [...document.querySelectorAll("table")].find((table) =>
      textOf(table.querySelector("caption")).startsWith("Emails about the order"),
    )!;
    expect(textOf(emailTable.querySelector("tbody th"))).toBe("Order confirmation");
    expect(textOf(emailTable.querySelector("tbody"))).toContain("jo@example.com");

    expect((await boxOffice.browser.get("/staff/orders/ZZZZZ-99999")).status).toBe(404);
    expect((await boxOffice.browser.get("/staff/orders/not-a-number")).status).toBe(404);
  });

  it("refunds one of two tickets through the provider once, and a second POST changes nothing", async () => {
    const order = await paidOrder(2, { row: "B" });
    const [kept, refunded] = await server.services.orders.tickets(order.id);
    const before = await page(boxOffice.browser, `/staff/orders/${order.number}`);
    const refundForm = before.querySelector("form#refund")!;
    expect(refundForm.getAttribute("method")).toBe("post");
    expect(textOf(refundForm.querySelector("legend"))).toBe("Tickets to refund");
    expect([...refundForm.querySelectorAll("button")].map((button) => textOf(button))).toEqual([
      "Refund chosen tickets",
      "Refund the whole order",
    ]);
    // No ticket of this order was used: no warning, and no box to tick for one.
    expect(refundForm.querySelector('input[name="confirmUsed"]')).toBeNull();

    const form: [string, string][] = [
      ["intent", "refund"],
      ["scope", "tickets"],
      ["tickets", refunded!.id],
      ["reason", "Cannot come"],
    ];
    const { document } = await postAndFollow(order.number, form);
    expect(status(document)).toBe(
      `Refunded £47.50. The buyer has been emailed. Void, their places back on sale: ${refunded!.label}.`,
    );
    expect(await sandboxRefunds(order)).toEqual([{ amount: BAND_B_PRICE }]);
    expect(textOf(ticketRow(document, refunded!.id)?.querySelectorAll("td")[3])).toMatch(/^Refunded \(void\)/);
    expect(textOf(ticketRow(document, kept!.id)?.querySelectorAll("td")[3])).toBe("Valid");
    expect(textOf(document.querySelector("dl"))).toContain("Paid, partly refunded");
    const refundRow = document.querySelector("tr[data-refund]")!;
    expect(textOf(refundRow)).toContain(refunded!.label);
    expect(textOf(refundRow)).toContain("£47.50");
    expect(textOf(refundRow)).toContain("Refunded");
    expect(textOf(refundRow)).toContain("Cannot come");
    // The refunded ticket is no longer offered.
    expect(document.querySelector(`form#refund input[value="${refunded!.id}"]`)).toBeNull();

    const again = await postAndFollow(order.number, form);
    expect(again.location).toBe(`/staff/orders/${order.number}?done=alreadyRefunded`);
    expect(status(again.document)).toBe("Already refunded: nothing more was done.");
    expect(await sandboxRefunds(order)).toEqual([{ amount: BAND_B_PRICE }]);
    expect(again.document.querySelectorAll("tr[data-refund]")).toHaveLength(1);

    const audit = (await server.services.staff.auditFor({ staffId: boxOffice.staff.id })).filter(
      (entry) => entry.action === "refund" && entry.detail.orderNumber === order.number,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      orderId: order.id,
      detail: { tickets: [refunded!.label], amount: BAND_B_PRICE, outcome: "refunded", whole: false },
    });
  });

  it("asks for the box office's word before refunding a ticket already used at the door", async () => {
    const order = await paidOrder(2, { row: "B" });
    const [used, other] = await server.services.orders.tickets(order.id);
    const checkedIn = await server.services.checkIn.checkIn({
      performanceId,
      code: used!.barcode,
      door: "Stalls door",
      staffId: boxOffice.staff.id,
    });
    expect(checkedIn.outcome).toBe("admitted");

    const document = await page(boxOffice.browser, `/staff/orders/${order.number}`);
    const state = textOf(ticketRow(document, used!.id)?.querySelectorAll("td")[3]);
    expect(state).toMatch(/^Already used at the door Checked in .* at Stalls door\.$/);
    expect(textOf(document.querySelector(".message--error"))).toBe(
      "Warning: 1 ticket of this order has already been used at the door.",
    );
    expect(textOf(document.querySelector('label[for="confirmUsed"]'))).toBe(
      "I know a ticket I am refunding was used at the door, and I am refunding it anyway",
    );

    // Unticked: nothing is refunded, and the form says why.
    for (const scope of [
      ["tickets", used!.id],
      ["whole", ""],
    ] as const) {
      const refused = await boxOffice.browser.post(`/staff/orders/${order.number}`, [
        ["intent", "refund"],
        ["scope", scope[0]],
        ...(scope[1] ? ([["tickets", scope[1]]] as [string, string][]) : []),
      ]);
      expect(refused.status).toBe(400);
      const html = documentOf(await refused.text());
      expect(textOf(html.querySelector(".error-summary"))).toContain(
        `Already used at the door: ${used!.label}. To refund it anyway, tick the box to say you know.`,
      );
      expect(html.querySelector('.error-summary a[href="#confirmUsed"]')).not.toBeNull();
    }
    expect(await sandboxRefunds(order)).toEqual([]);

    // The other ticket was not used: it is refunded without the box.
    const plain = await postAndFollow(order.number, [
      ["intent", "refund"],
      ["scope", "tickets"],
      ["tickets", other!.id],
    ]);
    expect(status(plain.document)).toMatch(/^Refunded £47\.50\./);

    const confirmed = await postAndFollow(order.number, [
      ["intent", "refund"],
      ["scope", "tickets"],
      ["tickets", used!.id],
      ["confirmUsed", "on"],
    ]);
    expect(status(confirmed.document)).toMatch(/^Refunded £47\.50\./);
    expect(await sandboxRefunds(order)).toEqual([{ amount: BAND_B_PRICE }, { amount: BAND_B_PRICE }]);
  });

  it("says when the provider refuses, and when it does not answer leaves the refund pending to try again", async () => {
    const db = server.services.store.db;
    const refusedOrder = await paidOrder(1);
    // The provider has nothing captured to give back: it refuses.
    await db
      .updateTable("sandbox_payments")
      .set({ captured: 0 })
      .where("reference", "=", await paymentReference(server.services, refusedOrder))
      .execute();
    const refused = await postAndFollow(refusedOrder.number, [
      ["intent", "refund"],
      ["scope", "whole"],
    ]);
    expect(status(refused.document)).toBe(
      `The payment provider refused the refund of £${(refusedOrder.total / 100).toFixed(2)}. Nothing was given back, and the tickets still stand.`,
    );
    expect(textOf(refused.document.querySelector("tr[data-refund]"))).toContain("Refused by the payment provider");

    const silentOrder = await paidOrder(1);
    const gateway = server.services.sandboxGateway!;
    const refund = gateway.refund;
    gateway.refund = () => Promise.reject(new Error("the provider did not answer"));
    let pending;
    try {
      pending = await postAndFollow(silentOrder.number, [
        ["intent", "refund"],
        ["scope", "whole"],
      ]);
    } finally {
      gateway.refund = refund;
    }
    expect(status(pending.document)).toMatch(
      /^The payment provider did not answer about the refund of £.*It is pending/,
    );
    const retry = pending.document.querySelector("tr[data-refund] form")!;
    expect(textOf(retry.querySelector("button"))).toBe("Try this refund again");
    const refundId = retry.querySelector<HTMLInputElement>('input[name="refund"]')!.value;
    const retried = await postAndFollow(silentOrder.number, [
      ["intent", "retry"],
      ["refund", refundId],
    ]);
    expect(retried.location).toBe(`/staff/orders/${silentOrder.number}?refund=${refundId}`);
    expect(status(retried.document)).toMatch(/^Refunded £/);
    expect(await sandboxRefunds(silentOrder)).toEqual([{ amount: silentOrder.total }]);
    expect(textOf(retried.document.querySelector("dl"))).toContain("Refunded");
    // Refunded whole: nothing left to refund or send.
    expect(retried.document.querySelector("form#refund")).toBeNull();
  });

  it("queues the confirmation again, once for one press of the button", async () => {
    const order = await paidOrder(1);
    const rows = () =>
      server.services.store.db
        .selectFrom("email_outbox")
        .select(["kind", "to_address"])
        .where("order_id", "=", order.id)
        .orderBy("created_at")
        .orderBy("kind")
        .execute();
    expect(await rows()).toEqual([{ kind: "orderConfirmation", to_address: "jo@example.com" }]);
    const before = await page(boxOffice.browser, `/staff/orders/${order.number}`);
    const resendForm = [...before.querySelectorAll("form")].find(
      (form) => form.querySelector('input[name="intent"]')?.getAttribute("value") === "resend",
    )!;
    expect(textOf(resendForm.querySelector("button"))).toBe("Resend the confirmation email");
    const fields: [string, string][] = [...resendForm.querySelectorAll<HTMLInputElement>('input[type="hidden"]')]
      .filter((input) => input.name !== "csrf")
      .map((input) => [input.name, input.value]);

    clock.advance(60_000);
    const { document, location } = await postAndFollow(order.number, fields);
    expect(location).toMatch(/\?email=/);
    expect(status(document)).toBe("The confirmation email was queued again to jo@example.com.");
    expect(await rows()).toEqual([
      { kind: "orderConfirmation", to_address: "jo@example.com" },
      { kind: "orderConfirmation:resend:1", to_address: "jo@example.com" },
    ]);
    const kinds = [...document.querySelectorAll("tr[data-email] th")].map((cell) => textOf(cell));
    expect(kinds).toEqual(["Order confirmation", "Order confirmation, sent again"]);

    // The same form sent again (a double press, a reload of the POST): nothing more.
    const repeated = await postAndFollow(order.number, fields);
    expect(repeated.location).toBe(`/staff/orders/${order.number}?done=resendRepeated`);
    expect(await rows()).toHaveLength(2);

    const audit = (await server.services.staff.auditFor({ staffId: boxOffice.staff.id })).filter(
      (entry) => entry.action === "resendEmail",
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ orderId: order.id, detail: { orderNumber: order.number } });
  });

  it("answers 404 on every orders address, GET and POST, to a door account and to a visitor", async () => {
    const order = await paidOrder(1);
    const [ticket] = await server.services.orders.tickets(order.id);
    const door = await signedInStaff(server, "door");
    for (const browser of [door.browser, buyerBrowser(server.url)]) {
      const posts = [
        [
          ["intent", "refund"],
          ["scope", "tickets"],
          ["tickets", ticket!.id],
          ["confirmUsed", "on"],
        ],
        [
          ["intent", "refund"],
          ["scope", "whole"],
        ],
        [
          ["intent", "retry"],
          ["refund", "x"],
        ],
        [
          ["intent", "resend"],
          ["seen", "0"],
        ],
      ] as [string, string][][];
      await expectNotFoundEverywhere(browser, {
        get: ["/staff/orders", "/staff/orders?q=Jo", `/staff/orders/${order.number}`],
        post: [
          ...posts.map((fields) => ({ path: `/staff/orders/${order.number}`, fields, name: fields[0]![1] })),
          { path: "/staff/orders", fields: { q: "Jo" } },
        ],
      });
    }
    expect(await sandboxRefunds(order)).toEqual([]);
    expect(
      await server.services.store.db
        .selectFrom("email_outbox")
        .select("kind")
        .where("order_id", "=", order.id)
        .execute(),
    ).toEqual([{ kind: "orderConfirmation" }]);
  });
});
