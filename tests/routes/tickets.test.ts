import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { insertPromo } from "../support/money";
import { seedSmall } from "../support/seed";

// The tickets page's forms and the reservation's actions, as a browser without script uses them:
// real requests to the built app, cookies kept, each redirect seen.

describe("choosing tickets", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let onSale: string;
  let later: string;
  let presale: string;
  let seats: Map<string, number>;
  let standingId: string;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
    const db = server.services.store.db;
    const performances = await db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
    [onSale, later] = performances.filter((performance) => performance.presale_from === null).map((p) => p.id) as [
      string,
      string,
    ];
    presale = performances.find((performance) => performance.presale_from !== null)!.id;
    const rows = await db.selectFrom("seats").select(["id", "row_name", "label"]).execute();
    seats = new Map(rows.map((row) => [`${row.row_name}${row.label}`, row.id]));
    standingId = (await db.selectFrom("sections").select("id").where("kind", "=", "standing").executeTakeFirstOrThrow())
      .id;
    await db
      .updateTable("performances")
      .set({ admission_message: "Doors open at seven." })
      .where("id", "=", onSale)
      .execute();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    await server.services.store.db.deleteFrom("seat_claims").where("status", "=", "held").execute();
    await server.services.store.db.deleteFrom("standing_claims").execute();
  });

  const page = (id: string) => `/shows/test-show/test-hall/tickets/${id}`;
  const seat = (name: string) => String(seats.get(name));

  it("reserves the ticked seats and shows them with the hold's clock, rendered by the server", async () => {
    const buyer = buyerBrowser(server.url);
    const response = await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("A5")],
      ["seat", seat("A6")],
    ]);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(page(onSale));
    expect(buyer.cookies.has("basket")).toBe(true);
    // The tracked events wait in their own cookie for the next page.
    expect(buyer.cookies.has("events")).toBe(true);
    const html = await (await buyer.get(page(onSale))).text();
    expect(html).toContain("Stalls, row A, seat 5");
    expect(html).toContain("Stalls, row A, seat 6");
    expect(html).toMatch(/role="timer"[^>]*>1[45]:\d\d</);
    expect(html).toContain("reserveSeats.success");
  });

  it("prices are all-in from the first: the seat map, key and standing price are what the basket charges", async () => {
    const buyer = buyerBrowser(server.url);
    const before = await (await buyer.get(page(onSale))).text();
    // Band A is £65 face value + £3 booking fee, Band B £45 + £2.50, standing £25 + £2.
    expect(before).toContain("<span>Stalls, row A, seat 5, £68.00</span>");
    expect(before).toContain("<span>Stalls, row B, seat 5, £47.50</span>");
    expect(before).toContain("Band A: £68.00");
    expect(before).toContain("Standing, £27.00 each");
    expect(before).not.toContain("£65.00");
    // The per-order fee is stated beside the prices, before any seat is chosen.
    expect(before).toContain("Prices include booking fees. A £2.50 transaction fee is added once per order.");

    await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("A5")],
    ]);
    const held = await (await buyer.get(page(onSale))).text();
    expect(held).toContain(">Full Price, £68.00<");
    expect(held).toContain(">Concession, £53.00<");
    expect(held).toMatch(/Transaction fee \(once per order\)<\/th><td class="ticket-table__amount">£2.50</);
    expect(held).toMatch(/Total<\/th><td class="ticket-table__amount">£70.50</);
  });

  it("unticking a seat gives it back; swapping at the seat limit works", async () => {
    const buyer = buyerBrowser(server.url);
    const four = ["A5", "A6", "A7", "A8"].map((name) => ["seat", seat(name)] as [string, string]);
    await buyer.post(page(onSale), [["intent", "select"], ...four]);
    const swapped = await buyer.post(page(onSale), [["intent", "select"], ...four.slice(1), ["seat", seat("A9")]]);
    expect(swapped.status).toBe(302);
    const html = await (await buyer.get(page(onSale))).text();
    expect(html).not.toContain("Stalls, row A, seat 5<");
    expect(html).toContain("Stalls, row A, seat 9");
  });

  it("over the seat limit: the spec's message with the configured number, and the capping event", async () => {
    const buyer = buyerBrowser(server.url);
    const five = ["A3", "A4", "A5", "A6", "A7"].map((name) => ["seat", seat(name)] as [string, string]);
    const response = await buyer.post(page(onSale), [["intent", "select"], ...five]);
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain("Sorry, you can&#x27;t purchase more than 4 seats online.");
    expect(html).toMatch(/<title>Error: /);
    const best = await buyer.post(page(onSale), { intent: "best", quantity: "5" });
    expect(best.status).toBe(400);
    const bestHtml = await best.text();
    expect(bestHtml).toContain("Sorry, you can&#x27;t purchase more than 4 seats online.");
    expect(bestHtml).toContain("For groups of more than 4, please call the box office on 020 7946 0999.");
  });

  it("a seat someone else holds is refused with the spec's reserve wording", async () => {
    await buyerBrowser(server.url).post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B5")],
    ]);
    const second = await buyerBrowser(server.url).post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B5")],
    ]);
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("some of the seats you chose have just been taken");
  });

  it("wheelchair spaces and companion seats need the access declaration", async () => {
    const buyer = buyerBrowser(server.url);
    const refused = await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("A1")],
      ["seat", seat("A2")],
    ]);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Please tick the box to confirm");
    const accepted = await buyer.post(page(onSale), [
      ["intent", "select"],
      ["access", "wheelchair"],
      ["seat", seat("A1")],
      ["seat", seat("A2")],
    ]);
    expect(accepted.status).toBe(302);
    const html = await (await buyer.get(page(onSale))).text();
    expect(html).toContain("(wheelchair space)");
    expect(html).toContain("(companion seat)");
  });

  it("best available holds a block and shows it on /checkout/reservations; search again gives it back", async () => {
    const buyer = buyerBrowser(server.url);
    const response = await buyer.post(page(onSale), { intent: "best", quantity: "3" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/checkout/reservations");
    const offer = await (await buyer.get("/checkout/reservations")).text();
    expect(new Set(offer.match(/Stalls, row [AB], seat \d+/g))).toHaveProperty("size", 3);
    const again = await buyer.post("/checkout/reservations", { intent: "again" });
    expect(again.headers.get("Location")).toBe(`${page(onSale)}#best-title`);
    expect(
      await server.services.store.db.selectFrom("seat_claims").where("status", "=", "held").selectAll().execute(),
    ).toEqual([]);
  });

  it("nothing fits: No options available, try again", async () => {
    const buyer = buyerBrowser(server.url);
    const response = await buyer.post(page(onSale), { intent: "best", quantity: "2", minPrice: "999900" });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("No options available, try again");
  });

  it("standing places by quantity, changed in place", async () => {
    const buyer = buyerBrowser(server.url);
    expect((await buyer.post(page(onSale), { intent: "standing", [`area-${standingId}`]: "3" })).status).toBe(302);
    expect((await buyer.post(page(onSale), { intent: "standing", [`area-${standingId}`]: "2" })).status).toBe(302);
    const html = await (await buyer.get(page(onSale))).text();
    expect(html).toContain("Standing, 2 places");
  });

  it("continuing needs the admission message acknowledged, then goes to the checkout", async () => {
    const buyer = buyerBrowser(server.url);
    await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B7")],
    ]);
    const refused = await buyer.post(page(onSale), { intent: "continue" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Please confirm you have read the admission information");
    const accepted = await buyer.post(page(onSale), { intent: "continue", ackAdmission: "yes" });
    expect(accepted.headers.get("Location")).toBe("/checkout/extras");
    const step = await (await buyer.get("/checkout/extras")).text();
    expect(step).toMatch(/role="timer"[^>]*>1[45]:\d\d</);
  });

  it("another date asks Empty your cart? first, and emptying it releases the seats", async () => {
    const buyer = buyerBrowser(server.url);
    await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B8")],
    ]);
    const elsewhere = await (await buyer.get(page(later))).text();
    expect(elsewhere).toContain("Empty your cart?");
    // Choosing seats there first changes nothing.
    const blocked = await buyer.post(page(later), [
      ["intent", "select"],
      ["seat", seat("B8")],
    ]);
    expect(blocked.headers.get("Location")).toBe(page(later));
    const emptied = await buyer.post("/checkout/hold", { intent: "empty", to: page(later) });
    expect(emptied.headers.get("Location")).toBe(page(later));
    expect(buyer.cookies.has("basket")).toBe(false);
    expect(await (await buyer.get(page(later))).text()).not.toContain("Empty your cart?");
  });

  it("release asks first (a page without script) and then frees the seats", async () => {
    const buyer = buyerBrowser(server.url);
    await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B9")],
    ]);
    const confirm = await (
      await buyer.get(`/checkout/hold?confirm=release&returnTo=${encodeURIComponent(page(onSale))}`)
    ).text();
    expect(confirm).toContain("Release your seats?");
    const released = await buyer.post("/checkout/hold", { intent: "release" });
    expect(released.headers.get("Location")).toBe("/shows/test-show/test-hall/calendar");
    expect(
      await server.services.store.db.selectFrom("seat_claims").where("status", "=", "held").selectAll().execute(),
    ).toEqual([]);
  });

  it("extend adds time up to the maximum; a foreign returnTo is never followed", async () => {
    const buyer = buyerBrowser(server.url);
    await buyer.post(page(onSale), [
      ["intent", "select"],
      ["seat", seat("B6")],
    ]);
    const extended = await buyer.post("/checkout/hold", { intent: "extend", returnTo: "//evil.example/" });
    expect(extended.headers.get("Location")).toBe("/");
    const html = await (await buyer.get(page(onSale))).text();
    expect(html).toMatch(/role="timer"[^>]*>2[45]:\d\d</);
  });

  it("a presale performance offers membership or a code; a presale code lets the buyer in", async () => {
    const buyer = buyerBrowser(server.url);
    const offer = await (await buyer.get(page(presale))).text();
    expect(offer).toContain("This performance is in presale");
    expect(offer).toContain('href="/membership"');
    const wrong = await buyer.post(page(presale), { intent: "promo", promoCode: "NOPE-NOPE" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("The code is invalid, please try again");
    await insertPromo(server.services.store, {
      code: "PRESALE1",
      rule_key: "unlockPresale",
      percent: null,
      valid_from: "2000-01-01T00:00:00.000Z",
      valid_until: "2100-01-01T00:00:00.000Z",
    });
    const applied = await buyer.post(page(presale), { intent: "promo", promoCode: " presale1 " });
    expect(applied.status).toBe(302);
    const open = await (await buyer.get(page(presale))).text();
    expect(open).not.toContain("This performance is in presale");
    expect(
      (
        await buyer.post(page(presale), [
          ["intent", "select"],
          ["seat", seat("A8")],
        ])
      ).status,
    ).toBe(302);
    expect(open).toContain("Promo code PRESALE1 applied.");
    // Removing the code warns first (a page without script), then takes the code away.
    const warning = await (await buyer.get(`/checkout/hold?confirm=remove-promo&returnTo=${page(presale)}`)).text();
    expect(warning).toContain("Remove promo code?");
    const removed = await buyer.post("/checkout/hold", { intent: "remove-promo", returnTo: page(presale) });
    expect(removed.headers.get("Location")).toBe(page(presale));
    expect(buyer.cookies.has("promo")).toBe(false);
    expect(await (await buyer.get(page(presale))).text()).toContain("This performance is in presale");
  });
});
