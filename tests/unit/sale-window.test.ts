import { describe, expect, it } from "vitest";
import {
  bookable,
  offersTickets,
  saleBegun,
  saleRefusal,
  saleState,
  saleWindowOf,
  type SaleState,
  type SaleWindow,
} from "~/ticketing/sale-window";

describe("where a performance stands for a buyer", () => {
  const window: SaleWindow = {
    status: "on_sale",
    onSaleFrom: "2026-12-01T10:00:00.000Z",
    onSaleUntil: "2026-12-20T19:30:00.000Z",
    presaleFrom: "2026-11-24T10:00:00.000Z",
    presaleUntil: "2026-12-01T10:00:00.000Z",
    presaleAudience: "plus-member,promo",
    queueOpensAt: null,
  };
  const guest = new Set<string>();
  const at = (iso: string) => new Date(iso);

  it.each([
    ["before presale", "2026-11-23T12:00:00.000Z", guest, "notYetOnSale"],
    ["in presale, as a guest", "2026-11-25T12:00:00.000Z", guest, "presale"],
    ["in presale, with a presale code", "2026-11-25T12:00:00.000Z", new Set(["promo"]), "presaleUnlocked"],
    ["in presale, as a member", "2026-11-25T12:00:00.000Z", new Set(["plus-member"]), "presaleUnlocked"],
    ["from general sale", "2026-12-01T10:00:00.000Z", guest, "onSale"],
    ["once online sales end", "2026-12-20T19:30:00.000Z", guest, "closed"],
  ] as const)("%s: %s", (_, now, audiences, state) => {
    expect(saleState(window, at(now), audiences)).toBe(state);
  });

  it("a performance without presale is not on sale until its sale opens; a cancelled one is cancelled", () => {
    const plain = { ...window, presaleFrom: null, presaleUntil: null, presaleAudience: "" };
    expect(saleState(plain, at("2026-11-25T12:00:00.000Z"), new Set(["promo"]))).toBe("notYetOnSale");
    expect(saleState({ ...window, status: "cancelled" }, at("2026-12-05T12:00:00.000Z"), guest)).toBe("cancelled");
  });

  it("a scheduled on-sale queues from its pre-queue's opening: offered, but no hold until the sale opens", () => {
    const scheduled = {
      ...window,
      presaleFrom: null,
      presaleUntil: null,
      presaleAudience: "",
      queueOpensAt: "2026-12-01T09:30:00.000Z",
    };
    expect(saleState(scheduled, at("2026-12-01T09:29:59.000Z"), guest)).toBe("notYetOnSale");
    expect(saleState(scheduled, at("2026-12-01T09:30:00.000Z"), guest)).toBe("queueOpen");
    expect(saleRefusal(scheduled, at("2026-12-01T09:45:00.000Z"), guest)).toBe("not-on-sale");
    expect(saleState(scheduled, at("2026-12-01T10:00:00.000Z"), guest)).toBe("onSale");
  });

  // The hold refuses exactly what the calendar does not offer, with the reason the tickets page
  // explains: one rule read two ways (issue 18).
  it.each([
    ["2026-11-23T12:00:00.000Z", guest, "not-on-sale"],
    ["2026-11-25T12:00:00.000Z", guest, "presale"],
    ["2026-11-25T12:00:00.000Z", new Set(["promo"]), null],
    ["2026-12-01T10:00:00.000Z", guest, null],
    ["2026-12-20T19:30:00.000Z", guest, "sales-closed"],
  ] as const)("at %s a hold is refused for %s", (now, audiences, refusal) => {
    expect(saleRefusal(window, at(now), audiences)).toBe(refusal);
  });

  it("reads a stored performance's window", () => {
    const row = {
      status: "cancelled" as const,
      on_sale_from: window.onSaleFrom,
      on_sale_until: window.onSaleUntil,
      presale_from: null,
      presale_until: null,
      presale_audience: "",
      queue_opens_at: null,
    };
    expect(saleWindowOf(row)).toEqual({
      ...window,
      status: "cancelled",
      presaleFrom: null,
      presaleUntil: null,
      presaleAudience: "",
    });
    expect(saleRefusal(saleWindowOf(row), at("2026-12-05T12:00:00.000Z"), guest)).toBe("not-found");
  });
});

describe("which performances link to their tickets page", () => {
  it("on sale and in presale (locked or not), while places are left; never otherwise", () => {
    expect(offersTickets("onSale", false)).toBe(true);
    expect(offersTickets("presale", false)).toBe(true);
    expect(offersTickets("presaleUnlocked", false)).toBe(true);
    expect(offersTickets("queueOpen", false)).toBe(true);
    expect(offersTickets("onSale", true)).toBe(false);
    expect(offersTickets("notYetOnSale", false)).toBe(false);
    expect(offersTickets("closed", false)).toBe(false);
    expect(offersTickets("cancelled", false)).toBe(false);
  });
});

describe("which states sell places", () => {
  const states: SaleState[] = [
    "onSale",
    "presale",
    "presaleUnlocked",
    "queueOpen",
    "notYetOnSale",
    "closed",
    "cancelled",
  ];

  it("on sale and in presale (locked or not); not a queue waiting for its sale, nor before, after or cancelled", () => {
    expect(states.filter(bookable)).toEqual(["onSale", "presale", "presaleUnlocked"]);
  });

  // A page shows how many places are left wherever places are sold, and links to the tickets page
  // there and where a queue is open: never one without the other.
  it("every state that sells places links to its tickets page, and only a queue links without selling", () => {
    for (const state of states) {
      if (bookable(state)) expect(offersTickets(state, false), state).toBe(true);
    }
    expect(states.filter((state) => offersTickets(state, false) && !bookable(state))).toEqual(["queueOpen"]);
  });
});

describe("whether a performance's sale has begun for anyone", () => {
  const window: SaleWindow = {
    status: "on_sale",
    onSaleFrom: "2026-12-01T10:00:00.000Z",
    onSaleUntil: "2026-12-20T19:30:00.000Z",
    presaleFrom: null,
    presaleUntil: null,
    presaleAudience: "",
    queueOpensAt: null,
  };
  const at = (iso: string) => new Date(iso);

  it("from its sale, its queue or its presale, whoever is asking; not before, and not once sales end", () => {
    expect(saleBegun(window, at("2026-12-01T09:59:59.000Z"))).toBe(false);
    expect(saleBegun(window, at("2026-12-01T10:00:00.000Z"))).toBe(true);
    expect(saleBegun(window, at("2026-12-20T19:30:00.000Z"))).toBe(false);
    const queued = { ...window, queueOpensAt: "2026-12-01T09:30:00.000Z" };
    expect(saleBegun(queued, at("2026-12-01T09:29:59.000Z"))).toBe(false);
    expect(saleBegun(queued, at("2026-12-01T09:30:00.000Z"))).toBe(true);
    // A presale for members has begun, though the guest asking could not book it.
    const presale = {
      ...window,
      presaleFrom: "2026-11-24T10:00:00.000Z",
      presaleUntil: "2026-12-01T10:00:00.000Z",
      presaleAudience: "plus-member",
    };
    expect(saleBegun(presale, at("2026-11-24T09:59:59.000Z"))).toBe(false);
    expect(saleBegun(presale, at("2026-11-24T10:00:00.000Z"))).toBe(true);
    expect(saleBegun({ ...window, status: "cancelled" }, at("2026-12-05T12:00:00.000Z"))).toBe(false);
  });
});
