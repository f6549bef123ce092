// Where a performance stands for a buyer, as the calendar and the show page word it. The domain
// decides it (saleState in app/ticketing/sale-window.ts, whose type is this union); components read
// views, not the domain, so the browser's copy is here. tests/unit/sale-window.test.ts fails the
// type check if the two part.

export type SaleState =
  /** On general sale. */
  | "onSale"
  /** In presale, and this buyer does not (yet) qualify: members and code holders can book. */
  | "presale"
  /** In presale, and this buyer's entitlements (a presale code) let them book now. */
  | "presaleUnlocked"
  /** Not on sale yet, but its waiting room is open: buyers queue for the on-sale time. */
  | "queueOpen"
  /** Neither on sale nor in presale yet. */
  | "notYetOnSale"
  /** Online sales have ended. */
  | "closed"
  | "cancelled";
