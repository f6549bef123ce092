import { describe, expect, it } from "vitest";
import { pageForPayment } from "~/ticketing/checkout-steps";

// The state enforcer's table: one page for each state of a payment, which every page after Pay
// checks before it shows anything (ticketing/checkout-steps.ts; web/order-pages.server.ts, guardPaymentPage).

describe("the page a buyer belongs on after Pay", () => {
  it.each([
    [{ kind: "none" }, "payment"],
    [{ kind: "processing", startedAt: "2026-11-24T12:00:00.000Z", method: "card" }, "verify"],
    [{ kind: "action", action: { kind: "challenge", url: "/sandbox/challenge" }, method: "card" }, "verify"],
    [{ kind: "timedOut", method: "card" }, "verify"],
    [{ kind: "paid" }, "confirmation"],
    [{ kind: "failed", failure: "declined", method: "card" }, "failed"],
    [{ kind: "failed", failure: "cancelled", method: "paypal" }, "payment"],
  ] as const)("%o → %s", (state, page) => {
    expect(pageForPayment(state as Parameters<typeof pageForPayment>[0])).toBe(page);
  });
});
