import { JSDOM } from "jsdom";
import { beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { buyerBrowser } from "../support/browser";
import { expectNotFoundEverywhere, signedInStaff, useStaffServer, type StaffServer } from "../support/staff";

// House seats and complimentary tickets (issue 55 item 5) from the production build, as a browser
// without script uses them: a box-office member holds two seats with a reason, the buyer's seat
// map offers them no more, they are released and offered again; a comp is issued and its e-tickets
// open; the door (and anyone not staff) gets the site's 404 on each page, read or posted.

const documentOf = (html: string) => new JSDOM(html).window.document;
const textOf = (html: string) => documentOf(html).body.textContent?.replace(/\s+/g, " ") ?? "";
const labelText = (document: Document, input: Element | null) =>
  input ? document.querySelector(`label[for="${input.id}"]`)?.textContent?.trim() : undefined;

describe("house seats and comps, without script", () => {
  let server: StaffServer;
  let performanceId: string;
  const clock = fixedClock(new Date());
  const seatIds = new Map<string, number>();

  useStaffServer(clock, (made) => {
    ({ server, performanceId } = made);
  });
  beforeAll(async () => {
    for (const seat of await server.services.store.db.selectFrom("seats").select(["id", "row_name", "label"]).execute())
      seatIds.set(`${seat.row_name}${seat.label}`, seat.id);
  });

  const seat = (name: string) => seatIds.get(name)!;
  const tickets = () => `/shows/test-show/test-hall/tickets/${performanceId}`;
  const offered = (html: string, name: string) =>
    new RegExp(`<input[^>]*name="seat"[^>]*value="${seat(name)}"`).test(html);

  it("holds two seats with a reason, which the buyer's seat map then no longer offers, and releases them", async () => {
    const { browser, staff } = await signedInStaff(server, "boxOffice");
    const home = documentOf(await (await browser.get("/staff")).text());
    expect(home.querySelector('a[href="/staff/house-seats"]')?.textContent).toBe("House seats");
    expect(home.querySelector('a[href="/staff/comps"]')?.textContent).toBe("Complimentary tickets");

    const choose = await browser.get("/staff/house-seats");
    expect(choose.status).toBe(200);
    expect(choose.headers.get("Cache-Control")).toBe("no-store");
    const chooseDocument = documentOf(await choose.text());
    const select = chooseDocument.querySelector("select#performance");
    expect(labelText(chooseDocument, select)).toBe("Performance");
    expect([...select!.querySelectorAll("option")].map((option) => option.getAttribute("value"))).toContain(
      performanceId,
    );
    expect(chooseDocument.querySelector("main form")?.getAttribute("method")).toBe("get");

    const page = `/staff/house-seats?performance=${performanceId}`;
    const before = await browser.get(page);
    expect(before.status).toBe(200);
    const beforeDocument = documentOf(await before.text());
    expect(textOf(beforeDocument.documentElement.outerHTML)).toContain(
      "No seats are held as house seats for this performance.",
    );
    const box = beforeDocument.querySelector<HTMLInputElement>(`input#seat-${seat("B4")}`)!;
    expect(box.disabled).toBe(false);
    expect(labelText(beforeDocument, box)).toBe("Seat 4");
    // The legends say where a seat is: the part of the house, then the row.
    const legends = (element: Element | null): string[] => {
      const fieldset = element?.parentElement?.closest("fieldset");
      return fieldset ? [...legends(fieldset), fieldset.querySelector("legend")!.textContent!] : [];
    };
    expect(legends(box)).toEqual(["Seats to hold", "Stalls", "Row B"]);
    const withheld = beforeDocument.querySelector<HTMLInputElement>(`input#seat-${seat("B10")}`)!;
    expect(withheld.disabled).toBe(true);
    expect(labelText(beforeDocument, withheld)).toBe("Seat 10, taken");
    expect(labelText(beforeDocument, beforeDocument.querySelector("input#reason"))).toBe("Reason");
    expect(beforeDocument.querySelector('button[type="submit"]:not([form])')).not.toBeNull();
    expect([...beforeDocument.querySelectorAll("button")].map((button) => button.textContent)).toContain(
      "Hold chosen seats",
    );

    const buyerPage = async () => (await (await buyerBrowser(server.url).get(tickets())).text()) as string;
    expect(offered(await buyerPage(), "B4")).toBe(true);

    const noReason = await browser.post(page, [
      ["form", "hold"],
      ["performance", performanceId],
      ["reason", ""],
      ["seat", String(seat("B4"))],
    ]);
    expect(noReason.status).toBe(400);
    expect(textOf(await noReason.text())).toContain("Enter a reason, in no more than 200 characters.");

    const held = await browser.post(page, [
      ["form", "hold"],
      ["performance", performanceId],
      ["reason", "Director's guests"],
      ["seat", String(seat("B4"))],
      ["seat", String(seat("B5"))],
    ]);
    expect(held.status).toBe(200);
    const heldHtml = await held.text();
    const heldDocument = documentOf(heldHtml);
    expect(heldDocument.querySelector('[role="status"]')?.textContent).toBe(
      "Held 2 seats off sale: Stalls, row B, seat 4; Stalls, row B, seat 5.",
    );
    const table = heldDocument.querySelector("table");
    expect(table?.querySelector("caption")?.textContent).toBe("2 house seats for this performance");
    expect(table?.querySelector("tbody tr")?.textContent).toContain("Director's guests");
    expect(table?.querySelector("tbody tr")?.textContent).toContain(staff.name);
    expect(labelText(heldDocument, heldDocument.querySelector(`input#release-${seat("B4")}`))).toBe(
      "Release Stalls, row B, seat 4",
    );
    expect(labelText(heldDocument, heldDocument.querySelector(`input#seat-${seat("B4")}`))).toBe("Seat 4, house seat");

    // The buyer's seat map, without script: the house seats are no checkbox of theirs to tick.
    const taken = await buyerPage();
    expect(offered(taken, "B4")).toBe(false);
    expect(offered(taken, "B5")).toBe(false);
    expect(offered(taken, "B6")).toBe(true);

    // Holding one of them again is refused by name, and nothing else is held with it.
    const again = await browser.post(page, [
      ["form", "hold"],
      ["performance", performanceId],
      ["reason", "Twice"],
      ["seat", String(seat("B5"))],
      ["seat", String(seat("B6"))],
    ]);
    expect(again.status).toBe(409);
    const againDocument = documentOf(await again.text());
    expect(againDocument.querySelector(".error-summary")?.textContent).toContain(
      "Stalls, row B, seat 5 is already a house seat.",
    );
    expect(againDocument.querySelector<HTMLInputElement>(`input#seat-${seat("B6")}`)?.checked).toBe(true);
    expect(offered(await buyerPage(), "B6")).toBe(true);

    const released = await browser.post(page, [
      ["form", "release"],
      ["performance", performanceId],
      ["release", String(seat("B4"))],
      ["release", String(seat("B5"))],
    ]);
    expect(released.status).toBe(200);
    const releasedDocument = documentOf(await released.text());
    expect(releasedDocument.querySelector('[role="status"]')?.textContent).toBe(
      "Released 2 seats back on sale: Stalls, row B, seat 4; Stalls, row B, seat 5.",
    );
    expect(releasedDocument.querySelector("table")).toBeNull();
    const free = await buyerPage();
    expect(offered(free, "B4")).toBe(true);
    expect(offered(free, "B5")).toBe(true);

    const audit = await server.services.staff.auditFor({ staffId: staff.id });
    expect(audit.map((entry) => entry.action)).toEqual(["signIn", "holdSeats", "releaseSeats"]);
    expect(audit[1]).toMatchObject({ performanceId, detail: { reason: "Director's guests" } });
  });

  it("issues a comp for a seat ticked and one typed, and opens its e-tickets", async () => {
    const { browser, staff } = await signedInStaff(server, "boxOffice");
    const page = `/staff/comps?performance=${performanceId}`;
    const form = documentOf(await (await browser.get(page)).text());
    for (const [id, label] of [
      ["typedSeats", "Seat names (optional)"],
      ["name", "Recipient's name"],
      ["email", "Recipient's email address"],
      ["reason", "Reason"],
      ["restricted", "I have checked that the recipient may have the restricted seats chosen"],
    ])
      expect(labelText(form, form.querySelector(`input#${id}`)), id).toBe(label);
    expect(labelText(form, form.querySelector(`input#seat-${seat("A1")}`))).toBe("Seat 1, restricted");

    const restricted = await browser.post(page, [
      ["performance", performanceId],
      ["seat", String(seat("A1"))],
      ["name", "Pat Guest"],
      ["email", "pat@example.com"],
      ["reason", "Press"],
    ]);
    expect(restricted.status).toBe(400);
    expect(textOf(await restricted.text())).toContain("Stalls, row A, seat 1 is a restricted seat.");

    const issued = await browser.post(page, [
      ["performance", performanceId],
      ["seat", String(seat("A7"))],
      ["typedSeats", "a 8"],
      ["name", "Pat Guest"],
      ["email", "pat@example.com"],
      ["reason", "Press night reviewer"],
    ]);
    expect(issued.status).toBe(200);
    const issuedDocument = documentOf(await issued.text());
    const status = issuedDocument.querySelector('[role="status"]');
    expect(status?.querySelector("h2")?.textContent).toBe("Complimentary tickets issued");
    expect(status?.textContent).toContain("Stalls, row A, seat 7; Stalls, row A, seat 8");
    const link = status?.querySelector("a");
    const number = /order (\S+)$/.exec(link?.textContent ?? "")?.[1];
    expect(number).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

    const order = (await server.services.orders.byNumber(number!))!;
    expect(order).toMatchObject({ status: "paid", total: 0, customer_name: "Pat Guest" });
    const eTickets = await buyerBrowser(server.url).get(link!.getAttribute("href")!);
    expect(eTickets.status).toBe(200);
    const eTicketsText = textOf(await eTickets.text());
    expect(eTicketsText).toContain("Stalls, row A, seat 7");
    expect(eTicketsText).toContain("Stalls, row A, seat 8");
    const [audit] = (await server.services.staff.auditFor({ orderId: order.id })).filter(
      (entry) => entry.action === "issueComp",
    );
    expect(audit).toMatchObject({ staffId: staff.id, detail: { orderNumber: number, reason: "Press night reviewer" } });

    // Sold now: the buyer's map does not offer them, and a second comp of one is refused by name.
    expect(offered(await (await buyerBrowser(server.url).get(tickets())).text(), "A7")).toBe(false);
    const twice = await browser.post(page, [
      ["performance", performanceId],
      ["typedSeats", "A7"],
      ["name", "Pat Guest"],
      ["email", "pat@example.com"],
      ["reason", "Again"],
    ]);
    expect(twice.status).toBe(409);
    expect(textOf(await twice.text())).toContain("Stalls, row A, seat 7 is already sold.");
  });

  it("answers the door, and anyone not staff, with the site's 404 on each page, read or posted", async () => {
    const { browser } = await signedInStaff(server, "door");
    const home = documentOf(await (await browser.get("/staff")).text());
    expect(home.querySelector('a[href="/staff/house-seats"]')).toBeNull();
    expect(home.querySelector('a[href="/staff/comps"]')).toBeNull();
    for (const visitor of [browser, buyerBrowser(server.url)]) {
      await expectNotFoundEverywhere(visitor, {
        get: [
          "/staff/house-seats",
          `/staff/house-seats?performance=${performanceId}`,
          "/staff/comps",
          `/staff/comps?performance=${performanceId}`,
        ],
        post: [
          {
            name: "hold",
            path: `/staff/house-seats?performance=${performanceId}`,
            fields: [
              ["form", "hold"],
              ["performance", performanceId],
              ["reason", "Not mine to hold"],
              ["seat", String(seat("B7"))],
            ],
          },
          {
            name: "release",
            path: `/staff/house-seats?performance=${performanceId}`,
            fields: [
              ["form", "release"],
              ["performance", performanceId],
              ["release", String(seat("B7"))],
            ],
          },
          {
            name: "comp",
            path: `/staff/comps?performance=${performanceId}`,
            fields: [
              ["performance", performanceId],
              ["seat", String(seat("B7"))],
              ["name", "Pat Guest"],
              ["email", "pat@example.com"],
              ["reason", "Not mine to give"],
            ],
          },
        ],
      });
    }
    expect(
      await server.services.store.db
        .selectFrom("seat_claims")
        .select("status")
        .where("performance_id", "=", performanceId)
        .where("seat_id", "=", seat("B7"))
        .executeTakeFirst(),
    ).toBeUndefined();
  });
});
