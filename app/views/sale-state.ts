// Where a performance stands for a buyer, as the calendar and the show page word it. The domain
// decides which (saleState in app/ticketing/sale-window.ts) and takes this union from here, so
// components, which read views and not the domain, share the one list.

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
