import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { buyerBrowser, type BuyerBrowser } from "../support/browser";
import {
  addStaff,
  expectNotFoundEverywhere,
  expectNotFromPageCache,
  forgeStaffCookie,
  oneTimeCode,
  paidETicketOrder,
  signedInBuyer,
  signedInStaff,
  STAFF_PASSWORD,
  type StaffServer,
  useStaffServer,
} from "../support/staff";

// The staff's first pages (issue 55) from the production build, as a browser without script uses
// them: sign-in with and without a one-time code, the start page, the door's check-in and its
// answers, signing out; and the 404 that everyone not signed in as staff gets, buyers included.

const documentOf = (html: string) => new JSDOM(html).window.document;
const textOf = (html: string) => documentOf(html).body.textContent?.replace(/\s+/g, " ") ?? "";

describe("the staff pages", () => {
  let server: StaffServer;
  let performanceId: string;
  const clock = fixedClock(new Date());

  useStaffServer(clock, (made) => {
    ({ server, performanceId } = made);
  });

  const door = () => `/staff/door?performance=${performanceId}&door=Stalls+door`;

  it("signs a box-office member in with their password and a one-time code, in a cookie of its own", async () => {
    const added = await addStaff(server.services, "boxOffice");
    const browser = buyerBrowser(server.url);
    const form = { email: added.staff.email, password: STAFF_PASSWORD };

    const noCode = await browser.post("/staff/sign-in", { ...form, code: "" });
    expect(noCode.status).toBe(400);
    const asked = await noCode.text();
    expect(textOf(asked)).toContain("Your account needs a one-time code");
    expect(documentOf(asked).title).toMatch(/^Error: /);
    expect(documentOf(asked).querySelector(".error-summary a")?.getAttribute("href")).toBe("#code");

    const wrong = await browser.post("/staff/sign-in", { ...form, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(textOf(await wrong.text())).toContain(
      "The email address, password or one-time code you entered is incorrect.",
    );

    const code = oneTimeCode(added.secondFactor!.secret, clock);
    const answer = await browser.post("/staff/sign-in", { ...form, code });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/staff");
    const cookie = answer.headers.getSetCookie().find((header) => header.startsWith("staff="));
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Max-Age=43200/i);

    const home = await browser.get("/staff");
    expect(home.status).toBe(200);
    expect(home.headers.get("Cache-Control")).toBe("no-store");
    const html = await home.text();
    expect(textOf(html)).toContain(`Signed in as ${added.staff.name} (${added.staff.email}), box office.`);
    expect(documentOf(html).querySelector('a[href="/staff/door"]')?.textContent).toBe("Door check-in");
  });

  it("draws the staff's own frame: their header, none of the buyer's links, no footer", async () => {
    const frameOf = (html: string) => {
      const page = documentOf(html);
      const header = page.querySelector("body > header");
      return {
        page,
        header,
        headerText: header?.textContent?.replace(/\s+/g, " ").trim(),
        buyerLinks: page.querySelectorAll('a[href^="/account"], a[href^="/legal/"]').length,
        footer: page.querySelector("footer"),
      };
    };
    const signIn = frameOf(await (await buyerBrowser(server.url).get("/staff/sign-in")).text());
    expect(signIn.headerText).toContain("Staff");
    expect(signIn.header?.querySelector("form")).toBeNull();
    expect(signIn.buyerLinks).toBe(0);
    expect(signIn.footer).toBeNull();
    expect(signIn.page.querySelector('a.skip-link[href="#main-content"]')).not.toBeNull();
    expect(signIn.page.querySelectorAll("main#main-content")).toHaveLength(1);
    expect(signIn.page.querySelector("main#main-content h1")?.textContent).toBe("Staff sign-in");

    const { browser, staff } = await signedInStaff(server, "door");
    for (const path of ["/staff", door()]) {
      const frame = frameOf(await (await browser.get(path)).text());
      expect(frame.headerText, path).toContain(`Signed in as ${staff.name} (door)`);
      expect(frame.header?.querySelector('a[href="/staff"]'), path).not.toBeNull();
      const signOut = frame.header?.querySelector('form[method="post"][action="/staff/sign-out"]');
      expect(signOut?.querySelector('input[type="hidden"]'), path).not.toBeNull();
      expect(signOut?.querySelector("button")?.textContent, path).toBe("Sign out");
      expect(frame.buyerLinks, path).toBe(0);
      expect(frame.footer, path).toBeNull();
      expect(frame.page.querySelectorAll("main#main-content"), path).toHaveLength(1);
    }
    // The header's sign-out is the start page's only one.
    expect(frameOf(await (await browser.get("/staff")).text()).page.querySelectorAll("form")).toHaveLength(1);

    // Anyone else's 404 is the site's own page in the buyer's frame, with nothing of the staff's.
    const refused = await (await buyerBrowser(server.url).get(door())).text();
    const notFound = frameOf(refused);
    expect(notFound.header?.querySelector('a[href="/account/sign-in"]')).not.toBeNull();
    expect(notFound.footer).not.toBeNull();
    expect(refused).not.toContain('"member"');
  });

  it("lets a door member check tickets in without a code: admitted, then already used, a void one refused", async () => {
    const { browser, staff } = await signedInStaff(server, "door");
    const order = await paidETicketOrder(server.services, performanceId, "B", ["3", "4"]);
    const [first, second] = await server.services.orders.tickets(order.id);
    expect((await server.services.refunds.refund(order.number, { tickets: [second!.barcode] })).ok).toBe(true);

    const choose = await browser.get("/staff/door");
    expect(choose.status).toBe(200);
    expect(choose.headers.get("Cache-Control")).toBe("no-store");
    const options = [...documentOf(await choose.text()).querySelectorAll("select#performance option")];
    expect(options.map((option) => option.getAttribute("value"))).toContain(performanceId);

    const page = await browser.get(door());
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(textOf(pageHtml)).toMatch(/Admitted 0 of \d+ expected\./);
    // The check-in form posts back to this address, so the answer is shown at the same door.
    const checkInForm = [...documentOf(pageHtml).querySelectorAll("form")].find((form) => form.querySelector("#code"));
    expect(checkInForm?.getAttribute("method")).toBe("post");
    expect(checkInForm?.getAttribute("action")).toBe(door());

    // Whoever the form claims to be, the session's member is who checked the ticket in.
    const admitted = await browser.post(door(), {
      performance: performanceId,
      door: "Stalls door",
      code: first!.barcode.toLowerCase(),
      staffId: "someone-else",
    });
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get("Cache-Control")).toBe("no-store");
    const admittedHtml = await admitted.text();
    const status = documentOf(admittedHtml).querySelector('#door-outcome[role="status"]');
    expect(status?.querySelector("h2")?.textContent).toBe("Admitted");
    expect(status?.textContent).toContain(first!.label);
    expect(status?.textContent).toContain(`Jo Bloggs, order ${order.number}`);
    expect(textOf(admittedHtml)).toMatch(/Admitted 1 of \d+ expected\./);
    const codeBox = documentOf(admittedHtml).querySelector<HTMLInputElement>("input#code")!;
    expect(codeBox.getAttribute("value")).toBeNull();
    expect(codeBox.getAttribute("aria-describedby")).toBe(status?.id);
    const row = await server.services.store.db
      .selectFrom("ticket_check_ins")
      .select(["staff_id", "door"])
      .where("ticket_id", "=", first!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ staff_id: staff.id, door: "Stalls door" });

    const again = await browser.post(door(), { performance: performanceId, door: "Circle door", code: first!.barcode });
    const againStatus = documentOf(await again.text()).querySelector('#door-outcome[role="status"]');
    expect(againStatus?.querySelector("h2")?.textContent).toBe("Already used: do not admit");
    expect(againStatus?.textContent).toContain("at Stalls door");

    const voided = await browser.post(door(), {
      performance: performanceId,
      door: "Stalls door",
      code: second!.barcode,
    });
    const voidStatus = documentOf(await voided.text()).querySelector('#door-outcome[role="status"]');
    expect(voidStatus?.querySelector("h2")?.textContent).toBe("Void: do not admit");

    const unknown = await browser.post(door(), { performance: performanceId, door: "Stalls door", code: "NOT A CODE" });
    expect(documentOf(await unknown.text()).querySelector('#door-outcome[role="status"] h2')?.textContent).toBe(
      "Unknown code: do not admit",
    );

    const empty = await browser.post(door(), { performance: performanceId, door: "Stalls door", code: "" });
    expect(empty.status).toBe(400);
    expect(textOf(await empty.text())).toContain("Enter the code printed under the ticket's barcode.");

    const audit = await server.services.staff.auditFor({ staffId: staff.id });
    expect(audit.filter((entry) => entry.action === "checkIn").map((entry) => entry.detail.outcome)).toEqual([
      "admitted",
      "alreadyUsed",
      "void",
      "unknown",
    ]);
    expect(audit.find((entry) => entry.action === "checkIn")).toMatchObject({
      performanceId,
      detail: { door: "Stalls door", ticket: first!.label, orderNumber: order.number },
    });
  });

  it("asks again for a door name that is missing or too long, and a performance not on the list", async () => {
    const { browser } = await signedInStaff(server, "door");
    const tooLong = await browser.get(`/staff/door?performance=${performanceId}&door=${"x".repeat(41)}`);
    expect(tooLong.status).toBe(200);
    const html = await tooLong.text();
    expect(textOf(html)).toContain("Enter the door's name, in no more than 40 characters.");
    expect(documentOf(html).querySelector("input#code")).toBeNull();
    const unlisted = textOf(await (await browser.get("/staff/door?performance=nope&door=Stalls")).text());
    expect(unlisted).toContain("Choose the performance you are checking tickets in for.");
  });

  it("signs out by a POST that ends the session and clears the cookie", async () => {
    const { browser } = await signedInStaff(server, "door");
    const token = browser.cookies.get("staff")!;
    const out = await browser.post("/staff/sign-out", {});
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/staff/sign-in");
    expect(browser.cookies.has("staff")).toBe(false);
    expect((await browser.get("/staff")).status).toBe(404);
    // The old cookie, kept by someone, signs no one in either.
    browser.cookies.set("staff", token);
    expect((await browser.get("/staff")).status).toBe(404);
  });

  describe("answer 404 to anyone not signed in as staff", () => {
    const refusedEverywhere = (browser: BuyerBrowser) =>
      expectNotFoundEverywhere(browser, {
        get: ["/staff", "/staff/door", door(), "/staff/sign-out"],
        post: ["/staff", "/staff/door", "/staff/sign-out"].map((path) => ({
          path,
          fields: { performance: performanceId, door: "Stalls", code: "ABC" },
        })),
      });

    it("a visitor who is not signed in", async () => {
      await refusedEverywhere(buyerBrowser(server.url));
    });

    it("a signed-in buyer, and a buyer's token in the staff cookie", async () => {
      const { browser: buyer, token } = await signedInBuyer(server);
      expect((await buyer.get("/account")).status).toBe(200);
      await refusedEverywhere(buyer);
      // The buyer's token signed as the staff cookie: still no one on the staff's side.
      await forgeStaffCookie(server, buyer, token);
      await refusedEverywhere(buyer);
    });

    it("and a staff token is no buyer's sign-in", async () => {
      const { browser } = await signedInStaff(server, "door");
      const token = (await server.services.sessions.staffCookie.parse(
        `staff=${browser.cookies.get("staff")}`,
      )) as string;
      const asBuyer = (await server.services.sessions.authCookie.serialize(token)).split(";")[0]!;
      browser.cookies.set("auth", asBuyer.slice("auth=".length));
      const account = await browser.get("/account");
      expect(account.status).toBe(303);
      expect(account.headers.get("Location")).toMatch(/^\/account\/sign-in/);
    });
  });

  it("never keeps a staff page in the page cache, and sends each with Cache-Control: no-store", async () => {
    for (const path of ["/staff/sign-in", "/staff"]) {
      for (let visit = 0; visit < 3; visit++) {
        const response = await fetch(server.url(path));
        await response.arrayBuffer();
        expect(response.headers.get("Cache-Control"), path).toBe("no-store");
        expectNotFromPageCache(response);
      }
    }
    const { browser } = await signedInStaff(server, "door");
    for (let visit = 0; visit < 3; visit++) {
      const response = await browser.get(door());
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      expectNotFromPageCache(response);
    }
  });

  it("tells a throttled sign-in when to try again (last: the address stays throttled)", async () => {
    const browser = buyerBrowser(server.url);
    let last: Response | undefined;
    for (let attempt = 0; attempt < 12; attempt++)
      last = await browser.post("/staff/sign-in", { email: "nobody@venue.example", password: "wrong", code: "" });
    expect(last!.status).toBe(429);
    expect(textOf(await last!.text())).toMatch(/Too many attempts. Please try again in \d+ minutes?\./);
  });
});
