import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { formatMoney } from "~/i18n/format";
import { accessServicesOf } from "~/views/access-services";
import { wheelchairBesideCompanion, wheelchairBooking } from "../support/access-bookings";
import { buyerBrowser, type BuyerBrowser } from "../support/browser";
import { insertCustomer } from "../support/customers";
import { startDemoServer } from "../support/demo-journey";
import { createEngine } from "../support/engine";
import { validateAllPages, type HtmlDriver } from "../support/html-driver";
import {
  expectNotFoundEverywhere,
  expectNotFromPageCache,
  paidETicketOrder,
  signedInStaff,
  signedInStaffDriver,
  type StaffServer,
  useStaffServer,
} from "../support/staff";

// The staff's sales and access lists (issue 55 item 4) from the production build, as a manager's
// browser without script uses them: the performances, a performance's report after a paid order,
// its access list, the orders' CSV in the request's language; the 404 every other role gets on
// each of them; and the access list of a demo access performance with a wheelchair booking.

/** What the driver's browser would send as its Cookie header to this path. */
const cookieHeader = (browser: HtmlDriver, path: string) =>
  [...browser.cookies(path)].map(([name, value]) => `${name}=${value}`).join("; ");

describe("the staff's sales and access lists", () => {
  let server: StaffServer;
  let performanceId: string;
  const clock = fixedClock(new Date());

  useStaffServer(clock, (made) => {
    ({ server, performanceId } = made);
  });

  /** Seats of row A bought and paid by card, as the payment step pays. */
  const paidOrder = (labels: string[]) => paidETicketOrder(server.services, performanceId, "A", labels);

  const reportPaths = (id: string) => [
    "/staff/performances",
    `/staff/performances/${id}`,
    `/staff/performances/${id}/access`,
    `/staff/performances/${id}/orders.csv`,
  ];

  it("shows a manager the performances, and a performance's places and takings after a paid order", async () => {
    const before = await server.services.performanceReports.performanceReport(performanceId);
    const order = await paidOrder(["3", "4"]);
    const browser = await signedInStaffDriver(server, "manager");

    await browser.follow("Sales and access lists");
    expect(browser.status).toBe(200);
    expect(browser.headers.get("Cache-Control")).toBe("no-store");
    expect(browser.document.querySelector("h1")?.textContent).toBe("Sales and access lists");
    expect(browser.document.querySelector("h2")?.textContent).toBe("Test Show, Test Hall");
    const link = browser.document.querySelector(`a[href="/staff/performances/${performanceId}"]`);
    expect(link?.textContent).toMatch(/^Test Show, /);

    await browser.open(`/staff/performances/${performanceId}`);
    expect(browser.status).toBe(200);
    expect(browser.headers.get("Cache-Control")).toBe("no-store");
    expect(browser.document.querySelector("h1")?.textContent).toBe("Sales report");
    expect(browser.text()).toContain("Test Show, Test Hall, ");

    const summary = Object.fromEntries(
      [...browser.document.querySelectorAll(".report-summary__item")].map((item) => [
        item.querySelector("dt")?.textContent,
        item.querySelector("dd")?.textContent,
      ]),
    );
    expect(order.total).toBeGreaterThan(0);
    expect(summary).toEqual({
      "Paid orders": "1",
      "Tickets that admit": "2",
      "Tickets refunded": "0",
      "Gross takings": formatMoney(order.total, "GBP", "en-GB"),
      "Refunds settled": "£0.00",
      "Net takings": formatMoney(order.total, "GBP", "en-GB"),
    });

    const [bands, sections] = [...browser.document.querySelectorAll("table.report-table")];
    expect(bands?.querySelector("caption")?.textContent).toBe("Places by price band");
    expect(sections?.querySelector("caption")?.textContent).toBe("Places by part of the house");
    for (const table of [bands!, sections!]) {
      expect([...table.querySelectorAll("thead th")].every((th) => th.getAttribute("scope") === "col")).toBe(true);
      expect([...table.querySelectorAll("tbody th, tfoot th")].every((th) => th.getAttribute("scope") === "row")).toBe(
        true,
      );
    }
    const capacity = before!.total.capacity;
    const withheld = before!.total.withheld;
    expect([...bands!.querySelectorAll("thead th")].map((cell) => cell.textContent)).toEqual([
      "Price band",
      "On sale",
      "Sold",
      "Held in baskets",
      "Free",
      "Withheld",
    ]);
    const bandRows = [...bands!.querySelectorAll("tbody tr")].map((row) =>
      [...row.querySelectorAll("th, td")].map((cell) => cell.textContent),
    );
    expect(bandRows.find((row) => row[0] === "Band A")?.slice(2, 4)).toEqual(["2", "0"]);
    const total = [...bands!.querySelectorAll("tfoot th, tfoot td")].map((cell) => cell.textContent);
    expect(total).toEqual(["Total", String(capacity), "2", "0", String(capacity - 2), String(withheld)]);
    const sectionTotal = [...sections!.querySelectorAll("tfoot th, tfoot td")].map((cell) => cell.textContent);
    expect(sectionTotal).toEqual(total);

    const csvLink = browser.document.querySelector(`a[href="/staff/performances/${performanceId}/orders.csv"]`);
    expect(csvLink?.textContent).toBe("Download the orders (CSV)");
    await browser.follow("Access list");
    expect(browser.status).toBe(200);
    expect(browser.document.querySelector("h1")?.textContent).toBe("Access list");
    expect(browser.text()).toContain("There are no access bookings for this performance.");
    expect(browser.document.querySelector("table")).toBeNull();
    await browser.follow("Back to the sales report");
    await browser.follow("All performances");
    expect(new URL(browser.url).pathname).toBe("/staff/performances");
    await browser.follow("Later performances");
    expect(browser.status).toBe(200);
  });

  it("downloads the orders as CSV, a line per ticket, headed in the request's language, never kept", async () => {
    const order = await paidOrder(["5", "6"]);
    const tickets = await server.services.orders.tickets(order.id);
    const browser = await signedInStaffDriver(server, "manager");
    const path = `/staff/performances/${performanceId}/orders.csv`;
    const download = (query = "") =>
      fetch(server.url(`${path}${query}`), { headers: { Cookie: cookieHeader(browser, path) } });

    for (let visit = 0; visit < 3; visit++) {
      const response = await download();
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="test-show-\d{4}-\d{2}-\d{2}-\d{4}-orders\.csv"$/,
      );
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expectNotFromPageCache(response);
      // Read as bytes: text() drops the byte order mark that tells Excel the file is UTF-8.
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes).split("\r\n");
      expect(lines[0]).toBe(
        "Order number,Paid at (UTC),Name,Email,Seat,Price band,Price incl. booking fee (GBP minor units),Refunded",
      );
      const ours = lines.filter((line) => line.startsWith(`${order.number},`));
      expect(ours).toHaveLength(2);
      for (const ticket of tickets) expect(ours.some((line) => line.includes(`"${ticket.label}"`))).toBe(true);
      expect(ours.every((line) => line.endsWith(",No") && line.includes(",Jo Bloggs,jo@example.com,"))).toBe(true);
    }
    const us = await (await download("?lng=en-US")).text();
    expect(us.split("\r\n")[0]).toBe(
      "Order number,Paid at (UTC),Name,Email,Seat,Price band,Price incl. service fee (GBP minor units),Refunded",
    );
  });

  it("words the report in the browser's language", async () => {
    const browser = await signedInStaffDriver(server, "manager", "en-US");
    await browser.open(`/staff/performances/${performanceId}`);
    expect(browser.status).toBe(200);
    const captions = [...browser.document.querySelectorAll("table caption")].map((caption) => caption.textContent);
    expect(captions).toEqual(["Places by price band", "Places by section"]);
    expect(browser.text()).toContain("Held in carts");
    expect(browser.text()).not.toContain("Held in baskets");
  });

  it("answers an unknown performance with the site's 404 page", async () => {
    const browser = await signedInStaffDriver(server, "manager");
    const unknown = "00000000-0000-0000-0000-000000000000";
    for (const path of reportPaths(unknown).slice(1, 3)) {
      await browser.open(path);
      expect(browser.status, path).toBe(404);
      expect(browser.document.title, path).toMatch(/not found/i);
    }
    const csv = await fetch(server.url(`/staff/performances/${unknown}/orders.csv`), {
      headers: { Cookie: cookieHeader(browser, "/staff") },
    });
    expect(csv.status).toBe(404);
    expect(csv.headers.get("Content-Type") ?? "").not.toMatch(/csv/);
    await browser.open("/staff/performances/not-a-performance");
    expect(browser.status).toBe(404);
  });

  describe("answers 404 on every reports route to anyone who may not see reports", () => {
    const refusedEverywhere = (browser: BuyerBrowser) =>
      expectNotFoundEverywhere(browser, {
        get: reportPaths(performanceId),
        post: reportPaths(performanceId).map((path) => ({ path, fields: {} })),
        hides: ["Jo Bloggs"],
        sitePage: false,
      });

    for (const role of ["boxOffice", "door"] as const)
      it(`a ${role} member, whose start page does not link to them`, async () => {
        const { browser } = await signedInStaff(server, role);
        const home = await (await browser.get("/staff")).text();
        expect(home).toContain("Sam ");
        expect(home).not.toContain("/staff/performances");
        expect(home).not.toContain("Sales and access lists");
        await refusedEverywhere(browser);
      });

    it("a visitor not signed in", async () => {
      await refusedEverywhere(buyerBrowser(server.url));
    });
  });

  it("has pages that pass the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});

describe("the access list of a demo access performance", { timeout: 120_000 }, () => {
  let server: Awaited<ReturnType<typeof startDemoServer>>;

  beforeAll(async () => {
    server = await startDemoServer();
  }, 120_000);
  afterAll(() => server.close());

  it("lists its wheelchair and companion booking, the services booked and the buyer's registered needs", async () => {
    const { services, clock } = server;
    // An access performance on general sale, with a wheelchair space and a companion seat beside it.
    const chosen = (await wheelchairBesideCompanion(services.store, clock))[0];
    expect(chosen).toBeDefined();
    const { id: performanceId } = chosen!;
    const performanceServices = accessServicesOf(chosen!.access_services);
    expect(performanceServices.length).toBeGreaterThan(0);

    // The buyer registered their needs (an access membership) and booked as a wheelchair user
    // with a companion, as the access booking flow lets them: through the domain, not the pages.
    const customerId = await insertCustomer(services.store, clock);
    await services.memberships.registerAccess(customerId, {
      wheelchair: true,
      companions: 1,
      otherNeeds: "Step-free route, please",
    });
    const order = await wheelchairBooking(createEngine(services.store, clock), performanceId, chosen!, {
      name: "Sam Wheeler",
      email: "sam@example.com",
      customerId,
      contacts: JSON.stringify({
        firstName: "Sam",
        lastName: "Wheeler",
        email: "sam@example.com",
        phone: "+447700900123",
        address: null,
        answers: {},
        contactConsent: false,
      }),
    });

    const browser = await signedInStaffDriver(server, "manager");
    await browser.open(`/staff/performances/${performanceId}`);
    await browser.follow("Access list");
    expect(browser.status).toBe(200);
    const words = (await services.i18n.createInstance("en-GB", "common")).t;
    expect(browser.text()).toContain(
      `Access services at this performance: ${performanceServices.map((service) => words(`access.service.${service}`)).join(", ")}.`,
    );
    const table = browser.document.querySelector("table.access-list__table")!;
    expect(table.querySelector("caption")?.textContent).toBe("Access bookings, by seat");
    const rows = [...table.querySelectorAll("tbody tr")];
    expect(rows).toHaveLength(1);
    const [seats, bookedBy, contact, registered] = [...rows[0]!.querySelectorAll("th, td")].map((cell) =>
      [...cell.querySelectorAll("li")].map((item) => item.textContent),
    );
    expect(seats).toHaveLength(2);
    expect(seats!.filter((seat) => /: wheelchair space/.test(seat ?? ""))).toHaveLength(1);
    expect(seats!.filter((seat) => /: companion seat/.test(seat ?? ""))).toHaveLength(1);
    expect(bookedBy).toEqual([]);
    expect(rows[0]!.querySelector('th[scope="row"]')?.textContent).toBe(`Sam WheelerOrder ${order.number}`);
    expect(contact).toEqual(["sam@example.com", "+447700900123"]);
    expect(registered).toEqual(["Wheelchair user", "1 companion", "Step-free route, please"]);
    await validateAllPages();
  });
});
