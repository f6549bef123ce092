import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { htmlDriver, validateAllPages } from "../support/html-driver";
import { answerStepsToPayment, fillCard } from "../support/no-script-checkout";
import { seedSmall } from "../support/seed";

// A buyer without script buys two seats on the small catalogue, in each language, using only what
// each page shows: every link, field and button found by its accessible name, every form sent as
// the page built it, every page checked (axe, labels, NUL bytes, and the Nu HTML Checker at the
// end, which checks nothing when run alone with -t: it is the journeys' pages it checks).

describe("purchase without script", () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(async () => {
    await server.close();
  });

  // Each language buys its own seats, since the first sells its pair.
  it.each([
    { language: "en-GB", seats: [3, 4] },
    { language: "en-US", seats: [5, 6] },
  ])(
    "$language: chooses seats on the map, answers every step, pays by card and opens the e-tickets",
    async ({ language, seats }) => {
      const { performanceId } = await smallCatalogueFacts(server.services.store);
      const buyer = htmlDriver(server.url(""), { language });

      await buyer.open(`/shows/test-show/test-hall/tickets/${performanceId}`);
      expect(buyer.status).toBe(200);
      expect(buyer.document.documentElement.lang).toBe(language);
      buyer
        .check(new RegExp(`^Stalls, row B, seat ${seats[0]},`))
        .check(new RegExp(`^Stalls, row B, seat ${seats[1]},`));
      await buyer.press("Reserve selected seats");
      expect(buyer.text()).toContain("Release seats");

      await buyer.press("Continue");
      expect(new URL(buyer.url).pathname).toBe("/checkout/extras");
      buyer.fill("Quantity of Programme", "1");
      await buyer.press("Continue");

      await answerStepsToPayment(buyer);
      // The buyer types their card and presses Pay, never touching the method radios: the card
      // form is what they see, so the card is the method (issue 16 item 5).
      fillCard(buyer, "4242 4242 4242 4242", { choose: false });
      await buyer.press("Pay £102.50");

      expect(new URL(buyer.url).pathname).toBe("/checkout/confirmation");
      expect(buyer.text()).toContain("Thank you, Jo Bloggs. Your order is complete.");
      expect(buyer.text()).toContain(`Stalls, row B, seat ${seats[0]}`);
      expect(buyer.text()).toContain(`Stalls, row B, seat ${seats[1]}`);
      expect(buyer.cookies().has("basket")).toBe(false);

      await buyer.follow("View and print your e-tickets");
      expect(buyer.status).toBe(200);
      expect(new URL(buyer.url).pathname).toMatch(/^\/e-tickets\//);
      expect(buyer.document.querySelectorAll("svg").length).toBe(2);
    },
  );

  // Once, for every distinct page either journey received: Java starts once for this file.
  it("every page the journeys received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
