import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { smallCatalogueFacts, throughToPayment } from "../support/checkout-journey";
import { seedSmall } from "../support/seed";

// Issue 40 item 3, from the production build: the brand's phone from configuration is on every
// page type, as the seller's contact in the footer; the header gives the number that can help
// with the page (decision 0043): the venue's on a venue's pages, its checkout, the order's pages
// and the waiting room for its performance; the brand's everywhere else. The wording sets'
// placeholder (020 7946 0000) is on none of them.

const BRAND_PHONE = "0800 160 1234";
const VENUE_PHONE = "020 7946 0999"; // the small catalogue's Test Hall
const PLACEHOLDER = "020 7946 0000";
const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };

type Buyer = ReturnType<typeof buyerBrowser>;

describe("the brand's phone on every page type", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let performanceId: string;

  beforeAll(async () => {
    server = await startServer(
      {
        BRAND_NAME: "Riverside Tickets",
        BRAND_PHONE,
        BRAND_EMAIL: "help@riverside.example",
        BRAND_LEGAL_ENTITY: "Riverside Tickets Ltd",
        // One buyer at a time, so a second one is shown the waiting room.
        QUEUE_ACTIVE_BUYERS: "1",
      },
      { seed: seedSmall },
    );
    ({ performanceId } = await smallCatalogueFacts(server.services.store));
  });
  afterAll(() => server.close());

  /** The page's header number and footer seller line; the placeholder is in neither. */
  async function frame(buyer: Buyer, path: string, status = 200) {
    const response = await buyer.get(path);
    expect(response.status, path).toBe(status);
    const html = await response.text();
    const document = new JSDOM(html).window.document;
    const header = document.querySelector(".site-header__support a")?.textContent;
    const footer = document.querySelector(".site-footer__seller")?.textContent ?? "";
    expect(footer, path).toContain(`Call us: ${BRAND_PHONE}`);
    expect(footer, path).toContain("Tickets are sold by Riverside Tickets Ltd.");
    expect(footer, path).toContain("help@riverside.example");
    expect(document.querySelector(".site-header")?.textContent, path).not.toContain(PLACEHOLDER);
    expect(footer, path).not.toContain(PLACEHOLDER);
    return { header, html, document };
  }

  it("the deployment's pages give the brand's number, and its name in the title and the header", async () => {
    const buyer = buyerBrowser(server.url);
    for (const path of ["/", "/legal/terms-of-use", "/account/sign-in", "/membership"]) {
      const page = await frame(buyer, path);
      expect(page.header, path).toBe(BRAND_PHONE);
      expect(page.document.title, path).toMatch(/Riverside Tickets$/);
      expect(page.document.querySelector(".site-header__wordmark")?.textContent).toBe("Riverside Tickets");
    }
    const missing = await frame(buyer, "/no-such-page", 404);
    expect(missing.header).toBe(BRAND_PHONE);
    const noShow = await frame(buyer, "/shows/no-such-show/test-hall", 404);
    expect(noShow.header).toBe(BRAND_PHONE);
  });

  it("a venue's pages, its checkout, the confirmation, the e-tickets and the waiting room give the venue's", async () => {
    const buyer = buyerBrowser(server.url);
    const show = "/shows/test-show/test-hall";
    for (const path of [show, `${show}/calendar`, `${show}/tickets/${performanceId}`, "/venues/test-hall"])
      expect((await frame(buyer, path)).header, path).toBe(VENUE_PHONE);

    await throughToPayment(buyer, server.services.store, ["B5"]);
    for (const step of ["extras", "ticket-protection", "collection", "contacts", "payment"])
      expect((await frame(buyer, `/checkout/${step}`)).header, step).toBe(VENUE_PHONE);

    // Another buyer, while this one is in: the door's waiting page, at the tickets page's address.
    const waiting = buyerBrowser(server.url);
    const roomPage = await frame(waiting, `${show}/tickets/${performanceId}`);
    expect(roomPage.document.querySelector("h1")?.textContent).toBe("You're in the queue");
    expect(roomPage.header).toBe(VENUE_PHONE);

    expect((await buyer.pay(CARD)).headers.get("Location")).toBe("/checkout/confirmation");
    const confirmation = await frame(buyer, "/checkout/confirmation");
    expect(confirmation.header).toBe(VENUE_PHONE);
    const eTickets = confirmation.document.querySelector<HTMLAnchorElement>('a[href^="/e-tickets/"]')?.href;
    expect(eTickets).toBeTruthy();
    expect((await frame(buyerBrowser(server.url), eTickets!)).header).toBe(VENUE_PHONE);
  });

  it("the browser's copy of the wording carries the brand, under the page's version", async () => {
    const html = await (await fetch(server.url("/"))).text();
    const version = /"LOCALES_VERSION":"([^"]+)"/.exec(html)?.[1];
    const common = await (await fetch(server.url(`/locales/en-GB/common.json?v=${version}`))).json();
    expect(common.venue.supportPhone).toBe(BRAND_PHONE);
    expect(common.brand.name).toBe("Riverside Tickets");
    expect((await fetch(server.url("/locales/en-GB/no-such-set.json"))).status).toBe(404);
  });
});
