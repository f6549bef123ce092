import type { Logger } from "pino";
import type { Config } from "~/config/env.server";
import type { I18nService } from "~/i18n/i18n.server";
import type { SessionService } from "~/web/session.server";
import type { Tracker } from "~/use-cases/tracker.server";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Availability } from "~/ticketing/availability-service.server";
import type { Baskets } from "~/ticketing/baskets.server";
import type { Catalogue } from "~/ticketing/catalogue.server";
import type { OrderLifecycle } from "~/ticketing/order-lifecycle.server";
import type { Inventory } from "~/ticketing/inventory.server";
import type { Orders } from "~/ticketing/orders.server";
import type { Promotions } from "~/ticketing/promotions.server";
import type { Reservations } from "~/ticketing/reservation-view.server";
import type { SeatSearch } from "~/ticketing/seat-search.server";
import type { SeatMaps } from "~/ticketing/seat-map.server";
import type { Vouchers } from "~/ticketing/vouchers.server";
import type { Memberships } from "~/ticketing/memberships.server";
import type { Outbox } from "~/use-cases/email/outbox.server";
import type { SandboxGateway } from "~/payments/sandbox.server";
import type { PaymentService } from "~/use-cases/pay.server";
import type { Refunds } from "~/use-cases/refunds.server";
import type { AuthService } from "~/use-cases/auth.server";
import type { Customers } from "~/use-cases/customers.server";
import type { OrderViews } from "~/use-cases/order-view.server";
import type { OrderCalendars } from "~/use-cases/order-calendar.server";
import type { Summaries } from "~/use-cases/summary.server";
import type { WaitingRooms } from "~/ticketing/waiting-room.server";
import type { PageCache } from "~/web/page-cache.server";
import type { Metrics } from "~/monitoring/metrics.server";
import type { StaffService } from "~/use-cases/staff.server";
import type { CheckIn } from "~/ticketing/check-in.server";
import type { PerformanceReports } from "~/ticketing/performance-report.server";
import type { BoxOffice } from "~/use-cases/box-office.server";
import type { HouseSeats } from "~/ticketing/house-seats.server";
import type { Comps } from "~/use-cases/comps.server";

// The request context's type is the web layer's, beside the sessions and the page cache it names:
// web code reads it without importing the composition above it, which builds it
// (app/composition/app-services.server.ts).

/** What the server builds once at start-up and hands to every loader and action. */
export interface AppServices {
  config: Config;
  i18n: I18nService;
  sessions: SessionService;
  tracker: Tracker;
  clock: Clock;
  store: Store;
  catalogue: Catalogue;
  inventory: Inventory;
  availability: Availability;
  seatSearch: SeatSearch;
  seatMaps: SeatMaps;
  promotions: Promotions;
  vouchers: Vouchers;
  orders: Orders;
  baskets: Baskets;
  orderLifecycle: OrderLifecycle;
  reservations: Reservations;
  /** The basket's and the order's itemised summaries, named from the catalogue. */
  summaries: Summaries;
  /** A paid order as its pages and its email show it. */
  orderViews: OrderViews;
  orderCalendars: OrderCalendars;
  outbox: Outbox;
  /** The built-in sandbox gateway and its pages; null when a real provider takes payments. */
  sandboxGateway: SandboxGateway | null;
  payments: PaymentService;
  /** The box office's refunds (the refund command; membership cancellation). */
  refunds: Refunds;
  /** Customer accounts: registration, sign-in, password reset. */
  auth: AuthService;
  /** Customer profiles (details, saved address) and the orders that are theirs. */
  customers: Customers;
  /** The paid and access memberships: prices, periods bought, registered access needs. */
  memberships: Memberships;
  /** The venue's staff: accounts, sign-in, sessions and the audit log (decision 0059). */
  staff: StaffService;
  /** Door check-in: a ticket's code admits it once (decision 0060). */
  checkIn: CheckIn;
  /** A performance's sales, takings, access list and orders' CSV, for the staff's reports. */
  performanceReports: PerformanceReports;
  /** The box office's orders: found, read whole, refunded, their confirmation sent again (decision 0061). */
  boxOffice: BoxOffice;
  /** Seats the box office keeps off sale, with a reason (decision 0063). */
  houseSeats: HouseSeats;
  /** Complimentary orders: seats given away, ticketed and emailed like a paid order (decision 0063). */
  comps: Comps;
  /** The waiting room: who may choose seats now, and the places of those who wait. */
  waitingRoom: WaitingRooms;
  /** What an operator watches at /metrics (app/monitoring/metrics.server.ts). */
  metrics: Metrics;
  /** The pages every visitor sees alike, kept as written (app/web/page-cache.server.ts). */
  pages: PageCache;
  /** Resolves when every dependency the site needs to answer is reachable. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Per request: the services, except the store (loaders and actions read and write through the
 * services and the domain, never the store itself), plus what belongs to this request alone.
 */
export interface AppContext extends Omit<AppServices, "store"> {
  logger: Logger;
  requestId: string;
  cspNonce: string;
  /** Where the request came from: what sign-in throttling counts by. */
  clientAddress: string;
  /**
   * A form posted from a page on another site (its Origin is not this host): every action refuses
   * it. See `sameOriginForms` in app.server.ts.
   */
  formFromAnotherSite?: boolean;
  /**
   * `read`, once per page: the loaders of a GET run side by side and change nothing, so they
   * share one read of the same thing (the basket, the order). Any other request reads afresh each
   * time, since an action's writes come between its reads (see app/web/request-reads.server.ts).
   */
  readOnce<T>(key: string, read: () => Promise<T>): Promise<T>;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
  interface Future {
    v3_singleFetch: true;
  }
}
