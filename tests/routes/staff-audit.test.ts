import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { validateAllPages } from "../support/html-driver";
import {
  paidETicketOrder,
  signedInStaff,
  signedInStaffDriver,
  useStaffServer,
  type StaffServer,
} from "../support/staff";

// The audit log's page (issue 55 item 1): a manager reads who did what to which order, newest
// first, and one order's entries from its page; the box office has no way there.

const documentOf = (html: string) => new JSDOM(html).window.document;
const rowsOf = (document: Document) =>
  [...document.querySelectorAll("main tbody tr")].map((row) =>
    [...row.children].map((cell) => cell.textContent?.replace(/\s+/g, " ").trim()),
  );

describe("the audit log's page", () => {
  let server: StaffServer;
  let performanceId: string;
  useStaffServer(fixedClock(new Date()), (made) => ({ server, performanceId } = made));

  it("shows a manager the box office's refund, by whom and of which order, and that order's entries alone", async () => {
    const refunded = await paidETicketOrder(server.services, performanceId, "B", ["3"]);
    const other = await paidETicketOrder(server.services, performanceId, "B", ["4"]);
    const boxOffice = await signedInStaff(server, "boxOffice");
    for (const order of [refunded, other]) {
      const page = await boxOffice.browser.get(`/staff/orders/${order.number}`);
      expect(page.status).toBe(200);
      // Only a manager is shown the way to the log.
      expect(documentOf(await page.text()).querySelector('a[href^="/staff/audit"]')).toBeNull();
    }
    const refund = await boxOffice.browser.post(`/staff/orders/${refunded.number}`, {
      intent: "refund",
      scope: "whole",
    });
    expect(refund.status).toBe(303);
    expect((await boxOffice.browser.get("/staff/audit")).status).toBe(404);

    const manager = await signedInStaff(server, "manager");
    const orderPage = documentOf(await (await manager.browser.get(`/staff/orders/${refunded.number}`)).text());
    const link = orderPage.querySelector('a[href^="/staff/audit"]');
    expect(link?.textContent).toBe("Audit log for this order");

    const all = documentOf(await (await manager.browser.get("/staff/audit")).text());
    const rows = rowsOf(all);
    // Newest first: the manager's own sign-in, then the refund, then the box office's sign-in.
    expect(rows[0]).toEqual([expect.any(String), "Sam manager", "Signed in", "", expect.any(String)]);
    const refundRow = rows.find((row) => row[2] === "Refund");
    expect(refundRow?.slice(1, 4)).toEqual(["Sam boxOffice", "Refund", refunded.number]);
    expect(refundRow?.[4]).toContain("Whole order: yes");
    expect(refundRow?.[4]).toMatch(/Amount: £\d+\.\d\d/);

    const forOrder = await manager.browser.get(link!.getAttribute("href")!);
    expect(forOrder.status).toBe(200);
    const entries = rowsOf(documentOf(await forOrder.text()));
    expect(entries.map((row) => row[2])).toEqual(["Refund"]);
    expect(entries.every((row) => row[3] === refunded.number)).toBe(true);
  });

  it("reads well without script in each language: axe, labels and the Nu HTML Checker", async () => {
    for (const language of ["en-GB", "en-US"] as const) {
      const manager = await signedInStaffDriver(server, "manager", language);
      await manager.follow("Audit log");
      expect(manager.document.querySelector("h1")?.textContent).toBe("Audit log");
      expect(manager.text()).toContain("Signed in");
    }
    await validateAllPages();
  });
});
