import type { Migration } from "kysely";
import * as catalogueAndInventory from "./2026-11-22T0900-catalogue-and-inventory";
import * as basketContents from "./2026-11-22T1800-basket-contents";
import * as promotionsVouchersOrders from "./2026-11-22T1500-promotions-vouchers-orders";
import * as checkoutAndPayment from "./2026-11-23T0100-checkout-and-payment";
import * as accounts from "./2026-11-23T1200-accounts";
import * as memberships from "./2026-11-23T1800-memberships";
import * as sandboxPayments from "./2026-11-23T2000-sandbox-payments";
import * as ticketsAndHoldsKeys from "./2026-11-25T0100-tickets-and-holds-keys";
import * as waitingRoom from "./2026-11-25T0200-waiting-room";
import * as onSaleRooms from "./2026-11-25T0400-on-sale-rooms";
import * as severalProcesses from "./2026-11-25T0300-several-processes";
import * as onSaleMomentOnce from "./2026-11-27T0900-on-sale-moment-once";
import * as providerRefundsAndNotifications from "./2026-11-28T0900-provider-refunds-and-notifications";
import * as refunds from "./2026-11-28T1000-refunds";
import * as picturesAndVenueVisits from "./2026-11-28T1100-pictures-and-venue-visits";
import * as showGenrePerformersImported from "./2026-11-28T1200-show-genre-performers-imported";
import * as waitingRoomAtScale from "./2026-11-29T0900-waiting-room-at-scale";
import * as accessPerformances from "./2026-11-29T1000-access-performances";
import * as suitedSeats from "./2026-11-30T0900-suited-seats";
import * as showAccessHazards from "./2026-11-30T1000-show-access-hazards";
import * as signUpLinks from "./2026-12-07T1000-sign-up-links";
import * as paymentTerms from "./2026-12-07T1200-payment-terms";
import * as staff from "./2026-12-07T1400-staff";
import * as ticketCheckIns from "./2026-12-07T1500-ticket-check-ins";
import * as houseSeats from "./2026-12-08T1000-house-seats";

// Every migration, by its date-prefixed name. Listed here (not read from the folder) so the same
// list works under tsx, vitest and any bundler.
export const MIGRATIONS: Record<string, Migration> = {
  "2026-11-22T0900-catalogue-and-inventory": catalogueAndInventory,
  "2026-11-22T1500-promotions-vouchers-orders": promotionsVouchersOrders,
  "2026-11-22T1800-basket-contents": basketContents,
  "2026-11-23T0100-checkout-and-payment": checkoutAndPayment,
  "2026-11-23T1200-accounts": accounts,
  "2026-11-23T1800-memberships": memberships,
  "2026-11-23T2000-sandbox-payments": sandboxPayments,
  "2026-11-25T0100-tickets-and-holds-keys": ticketsAndHoldsKeys,
  "2026-11-25T0200-waiting-room": waitingRoom,
  "2026-11-25T0300-several-processes": severalProcesses,
  "2026-11-25T0400-on-sale-rooms": onSaleRooms,
  "2026-11-27T0900-on-sale-moment-once": onSaleMomentOnce,
  "2026-11-28T0900-provider-refunds-and-notifications": providerRefundsAndNotifications,
  "2026-11-28T1000-refunds": refunds,
  "2026-11-28T1100-pictures-and-venue-visits": picturesAndVenueVisits,
  "2026-11-28T1200-show-genre-performers-imported": showGenrePerformersImported,
  "2026-11-29T0900-waiting-room-at-scale": waitingRoomAtScale,
  "2026-11-29T1000-access-performances": accessPerformances,
  "2026-11-30T0900-suited-seats": suitedSeats,
  "2026-11-30T1000-show-access-hazards": showAccessHazards,
  "2026-12-07T1000-sign-up-links": signUpLinks,
  "2026-12-07T1200-payment-terms": paymentTerms,
  "2026-12-07T1400-staff": staff,
  "2026-12-07T1500-ticket-check-ins": ticketCheckIns,
  "2026-12-08T1000-house-seats": houseSeats,
};
