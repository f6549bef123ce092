import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import type { Order } from "~/ticketing/orders.server";
import { startServer } from "../support/app";
import { smallCatalogue } from "../support/catalogue";
import { firstOnSalePerformanceId, paidETicketOrder } from "../support/staff";

// After paying (issue 56 item 6), from the production build: the confirmation and the e-tickets
// say where the venue is, link its map and the way there, and offer the performance as a
// calendar file that a real iCalendar parser reads with the right start and running time.

// A venue in a zone of its own (not the test machine's, not UTC), with its way there written.
const VENUE_ZONE = "America/New_York";
const TRAVEL = "Nearest subway: Test Street & 5th.\n\nNo parking on show nights.";
const NOW = "2026-12-08T10:00:00.000Z";

function catalogue() {
  const file = smallCatalogue();
  const venue = file.venues[0]!;
  return { ...file, venues: [{ ...venue, timeZone: VENUE_ZONE, travel: TRAVEL }, ...file.venues.slice(1)] };
}

/** The performance's wall-clock start in the venue's zone, and its weekday there. */
function wallClock(at: Date): { weekday: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: VENUE_ZONE,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { weekday: part("weekday").toLowerCase(), time: `${part("hour")}:${part("minute")}` };
}

describe("after paying: the venue, the way there and the calendar entry", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let order: Order;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        clock,
        seed: async (services) => {
          await importCatalogue(services.store, catalogue(), fixedClock(services.clock.now()));
        },
      },
    );
    order = await paidETicketOrder(server.services, await firstOnSalePerformanceId(server.services.store), "B", [
      "5",
      "6",
    ]);
  });
  afterAll(() => server.close());

  const get = (path: string, cookie?: string) => fetch(server.url(path), { headers: cookie ? { cookie } : {} });
  const page = async (path: string, cookie?: string) => {
    const response = await get(path, cookie);
    expect(response.status).toBe(200);
    return response.text();
  };
  const calendarPath = () => `/e-tickets/${order.access_key}/calendar.ics`;

  it("the confirmation and the e-tickets show the address, the map, the way there and the calendar link", async () => {
    const cookie = (await server.services.sessions.orderCookie.serialize(order.id)).split(";")[0]!;
    for (const html of [await page("/checkout/confirmation", cookie), await page(`/e-tickets/${order.access_key}`)]) {
      expect(html).toMatch(/<h2 id="order-visit-heading">Getting there<\/h2>/);
      expect(html).toMatch(/<address class="venue-address">Test Hall.*1 Test Street.*London SW1A 1AA.*<\/address>/s);
      expect(html).toContain(
        'href="https://www.openstreetmap.org/search?query=Test%20Hall%2C%201%20Test%20Street%2C%20London%20SW1A%201AA"',
      );
      expect(html).toContain("<p>Nearest subway: Test Street &amp; 5th.</p>");
      expect(html).toContain("<p>No parking on show nights.</p>");
      expect(html).toContain(
        `<a href="${calendarPath()}" type="text/calendar">Add Test Show to your calendar (.ics file)</a>`,
      );
    }
  });

  it("the .ics parses, starts at the performance's time in the venue's zone and lasts its running time", async () => {
    const response = await get(calendarPath());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    // RFC 5545: lines end in CRLF.
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBeTruthy();
    const events = calendar.getAllSubcomponents("vevent");
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]!);

    const performance = await server.services.store.db
      .selectFrom("performances")
      .select("starts_at")
      .where("id", "=", order.performance_id!)
      .executeTakeFirstOrThrow();
    const start = event.startDate.toJSDate();
    expect(start.toISOString()).toBe(performance.starts_at);
    // The catalogue's schedule is in the venue's own time: 19:30 on weekdays, 14:30 or 19:30 on
    // Saturday, 15:00 on Sunday, in New York, whatever zone this machine is in.
    const local = wallClock(start);
    const schedule: Record<string, string[]> = { sat: ["14:30", "19:30"], sun: ["15:00"] };
    expect(schedule[local.weekday] ?? ["19:30"]).toContain(local.time);
    // The running time (120 minutes in the catalogue).
    expect(event.endDate.toJSDate().getTime() - start.getTime()).toBe(120 * 60_000);

    expect(event.summary).toBe("Test Show");
    expect(event.location).toBe("Test Hall, 1 Test Street, London SW1A 1AA");
    expect(event.uid).toBe(`${order.id}.${order.performance_id}@127.0.0.1`);
    const stamp = events[0]!.getFirstPropertyValue("dtstamp") as ICAL.Time;
    expect(stamp.toJSDate().toISOString()).toBe(NOW);
    expect(events[0]!.getFirstPropertyValue("url")).toBe(server.url(`/e-tickets/${order.access_key}`));
  });

  it("the same file each time, but for its stamp: the UID is stable, so a second import updates the entry", async () => {
    const first = await (await get(calendarPath())).text();
    clock.advance(60_000);
    const second = await (await get(calendarPath())).text();
    const uid = (text: string) => /\r\nUID:(.*)\r\n/.exec(text)?.[1];
    expect(uid(second)).toBe(uid(first));
    expect(second).not.toBe(first);
  });

  it("an unknown key is a 404, and so is an unpaid order's", async () => {
    expect((await get("/e-tickets/not-a-real-key/calendar.ics")).status).toBe(404);
    await server.services.store.db
      .updateTable("orders")
      .set({ status: "cancelled" })
      .where("id", "=", order.id)
      .execute();
    try {
      expect((await get(calendarPath())).status).toBe(404);
    } finally {
      await server.services.store.db.updateTable("orders").set({ status: "paid" }).where("id", "=", order.id).execute();
    }
  });
});
