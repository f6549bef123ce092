import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser, payForm } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import { seedSmall } from "../support/seed";

// Issue 19's budget: a whole no-script order (hold, every step, Pay, the confirmation) costs at
// most 40 statements, BEGIN and COMMIT included, each a round trip on PostgreSQL. Held at what it
// costs now, 39 (issue 54: a paid order's payment is not read back), so a statement added fails
// here. The count is the store's own (the same on either database); `npm run bench` prints it
// under load on both.
const STATEMENTS_PER_ORDER = 39;

describe("the database statements an order costs", () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server.close());

  async function order(seats: string[]) {
    const buyer = buyerBrowser(server.url);
    // The CSRF cookie, as the page before the first form would have set it.
    await (await buyer.get("/legal/privacy-policy")).arrayBuffer();
    const before = server.services.store.statements();
    await throughToPayment(buyer, server.services.store, seats);
    const shown = payForm(await (await buyer.get("/checkout/payment")).text());
    const paid = await buyer.post("/checkout/payment", {
      ...shown.fields,
      method: "card",
      cardNumber: "4242 4242 4242 4242",
      cardOwner: "Jo Bloggs",
      expiry: "12/30",
      cvv: "123",
    });
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    expect((await buyer.get("/checkout/confirmation")).status).toBe(200);
    return server.services.store.statements() - before;
  }

  it(`is at most ${STATEMENTS_PER_ORDER}, the seat map's hold to the confirmation page`, async () => {
    // The first order warms what the site keeps of the catalogue; the second is what every later one costs.
    await order(["A4", "A5"]);
    const statements = await order(["A6", "A7"]);
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(STATEMENTS_PER_ORDER);
  });
});
