import { join, resolve } from "node:path";
import { imagesDirOf } from "~/web/picture-files.server";
import { pageCache } from "~/web/page-cache.server";
import { sql } from "kysely";
import type { Logger } from "pino";
import { systemClock, type Clock } from "~/clock";
import type { Config } from "~/config/env.server";
import { developmentSessionSecret } from "~/config/development-secret.server";
import type { AppServices } from "~/web/context";
import { openStore, SQLITE_FILE_NAME, type Store } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { watchClaimChanges } from "~/db/change-feed.server";
import { createJobLeases, startPeriodicJob } from "~/db/leases.server";
import { withStartupLock } from "~/db/startup-lock.server";
import { createLogTracker } from "~/use-cases/tracker.server";
import { unbrandedInProduction } from "~/config/brand.server";
import { createMetrics } from "~/monitoring/metrics.server";
import { brandedLocaleFiles, createI18nService, readLocaleFiles } from "~/i18n/i18n.server";
import { createSessionService } from "~/web/session.server";
import { createBaskets } from "~/ticketing/baskets.server";
import { createCatalogueFacts } from "~/ticketing/catalogue-facts.server";
import { createCatalogue } from "~/ticketing/catalogue.server";
import { createOrderLifecycle } from "~/ticketing/order-lifecycle.server";
import { isCatalogueEmpty, loadDemoCatalogue } from "~/ticketing/demo.server";
import { createAvailability } from "~/ticketing/availability-service.server";
import { createInventory } from "~/ticketing/inventory.server";
import { createOrders } from "~/ticketing/orders.server";
import { createPromotions } from "~/ticketing/promotions.server";
import { createReservations } from "~/ticketing/reservation-view.server";
import { createSeatSearch } from "~/ticketing/seat-search.server";
import { createSeatMaps } from "~/ticketing/seat-map.server";
import { createVouchers } from "~/ticketing/vouchers.server";
import { createMemberships } from "~/ticketing/memberships.server";
import { createWaitingRooms } from "~/ticketing/waiting-room.server";
import { createFulfilment } from "~/use-cases/fulfilment.server";
import { createOrderCalendars } from "~/use-cases/order-calendar.server";
import { createOrderViews } from "~/use-cases/order-view.server";
import { createSummaries } from "~/use-cases/summary.server";
import { createMailTransport, createOutbox } from "~/use-cases/email/outbox.server";
import { createSandboxGateway, type SandboxGateway } from "~/payments/sandbox.server";
import { createPayPalGateway } from "~/payments/paypal.server";
import { createStripeGateway } from "~/payments/stripe.server";
import { combineGateways } from "~/payments/combined.server";
import type { PaymentGateway } from "~/payments/gateway";
import { createAuth } from "~/use-cases/auth.server";
import { createCustomers } from "~/use-cases/customers.server";
import { createPaymentService, startReconciler } from "~/use-cases/pay.server";
import { createRefundLedger } from "~/ticketing/refunds.server";
import { createRefunds } from "~/use-cases/refunds.server";
import { createStaff } from "~/use-cases/staff.server";
import { createCheckIn } from "~/ticketing/check-in.server";
import { createPerformanceReports } from "~/ticketing/performance-report.server";
import { createOrderSearch } from "~/ticketing/order-search.server";
import { createBoxOffice } from "~/use-cases/box-office.server";
import { createHouseSeats } from "~/ticketing/house-seats.server";
import { createCompOrders } from "~/ticketing/comp-orders.server";
import { createComps } from "~/use-cases/comps.server";

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** The project's root folder (locales/ and catalogue/ are read from it; DATA_DIR is relative to it). */
  root: string;
  clock?: Clock;
  /**
   * Whether to bring the store to the latest migration and load the demo catalogue first (the
   * default). A cluster's workers do not: their primary did it once before starting them.
   */
  prepare?: boolean;
}

const SWEEP_INTERVAL_MS = 60_000;
const OUTBOX_INTERVAL_MS = 5_000;

const sqliteFileOf = (config: Config, root: string) => resolve(root, config.dataDir, SQLITE_FILE_NAME);

/**
 * Brings the store to the latest migration and loads the demo catalogue into an empty one
 * (DEMO_CATALOGUE=auto), in one process at a time however many start together on one database.
 */
export async function prepareStore(
  store: Store,
  { config, logger, root, clock = systemClock }: Omit<ServiceOptions, "prepare">,
): Promise<void> {
  await withStartupLock(store, sqliteFileOf(config, root), async () => {
    const applied = await migrateToLatest(store.db);
    if (applied.length) logger.info({ migrations: applied }, "migrations applied");
    if (config.demoCatalogue === "auto" && (await isCatalogueEmpty(store))) {
      const summary = await loadDemoCatalogue(store, clock, root, imagesDirOf(config, root));
      logger.info(summary, "demo catalogue loaded");
    }
  });
}

/** The configuration with the secrets cookies are signed with: development's own when none was given. */
function withSessionSecrets(config: Config, root: string): Config {
  if (config.sessionSecrets.length > 0) return config;
  return { ...config, sessionSecrets: [developmentSessionSecret(resolve(root, config.dataDir))] };
}

/** The store as the server opens it, losing idle connections quietly. */
export function openServerStore(config: Config, logger: Logger, root: string): Store {
  return openStore(config.databaseUrl, sqliteFileOf(config, root), (error) =>
    logger.warn({ err: error }, "database connection lost; the pool will reconnect"),
  );
}

/**
 * Builds everything a request needs, once: opens the store and brings it to the latest migration,
 * loads the demo catalogue into an empty store (DEMO_CATALOGUE=auto), and starts the sweeper that
 * frees expired holds. The server does this at start-up, tests per suite.
 */
export async function createAppServices({
  config: configured,
  logger,
  root,
  clock = systemClock,
  prepare = true,
}: ServiceOptions): Promise<AppServices> {
  const config = withSessionSecrets(configured, root);
  const sessions = createSessionService(config);
  const i18n = createI18nService(
    brandedLocaleFiles(readLocaleFiles(join(root, "locales")), config.brand),
    config.language,
    sessions.languageCookie,
  );
  const unbranded = unbrandedInProduction(config);
  if (unbranded.length > 0)
    logger.warn(
      { unset: unbranded },
      `${unbranded.join(" and ")} not set (nor in BRAND_FILE): pages show the demonstration's name and support number, which reaches nobody`,
    );
  const store = openServerStore(config, logger, root);
  if (prepare) await prepareStore(store, { config, logger, root, clock });
  // Other processes' holds and releases reach this one's availability cache as they commit.
  const feed = watchClaimChanges(store, {
    onState: (state, error) =>
      state === "listening"
        ? logger.info("listening for other processes' changes to availability")
        : logger.warn({ err: error }, "stopped hearing other processes' changes; availability may lag until back"),
  });
  // Which process runs each periodic job, when several share the store.
  const leases = createJobLeases(store, clock);
  const availability = createAvailability(store, clock, {
    thresholds: config.availabilityThresholds,
    maxAgeMs: config.availabilityMaxAgeMs,
    feed,
  });
  // What an operator watches at /metrics (docs/operating.md, "Metrics"): this process's counts.
  const metrics = createMetrics();
  const { counted } = metrics;
  const inventory = createInventory(store, clock, config.holdPolicy, availability.changed, counted);
  const facts = createCatalogueFacts(store, clock);
  const baskets = createBaskets(store, clock, facts);
  const orders = createOrders(store, clock);
  const promotions = createPromotions(store, clock);
  const vouchers = createVouchers(store, clock);
  const memberships = createMemberships(store, clock);
  const orderLifecycle = createOrderLifecycle({
    store,
    baskets,
    orders,
    promotions,
    vouchers,
    inventory,
    memberships,
    counted,
  });
  const outbox = createOutbox({
    store,
    clock,
    logger,
    from: config.emailFrom,
    transport: createMailTransport({
      smtpUrl: config.smtpUrl,
      outboxDir: resolve(root, config.dataDir, "outbox"),
      logger,
    }),
  });
  // Sends what is due (retries, and what a just-queued email's own kick missed): one process at a time.
  const outboxJob = startPeriodicJob({
    name: "email-outbox",
    intervalMs: OUTBOX_INTERVAL_MS,
    leases,
    run: () => outbox.deliverDue(),
    onError: (error) => logger.warn({ err: error }, "email delivery run failed"),
  });
  const catalogue = createCatalogue(store, clock);
  const summaries = createSummaries({ catalogue, vouchers });
  const orderViews = createOrderViews({ orders, catalogue, summaries });
  const orderCalendars = createOrderCalendars({ orders, catalogue, clock, publicUrl: config.publicUrl });
  const fulfilment = createFulfilment({ orders, catalogue, orderViews, i18n, outbox, config, logger });
  // Who takes the money (docs/buying.md, "Taking real payments"): cards from PAYMENT_PROVIDER, PayPal from
  // PayPal itself when its credentials are given. Configuration refuses the sandbox in production
  // unless the operator said yes, and then the log says so at every start. The sandbox exists only
  // when it is the provider, so its pages (/sandbox/…) are 404 otherwise.
  if (config.appEnv === "production" && config.paymentProvider === "sandbox")
    logger.warn(
      { paymentProvider: "sandbox" },
      "the payment sandbox is taking payments in production (SANDBOX_IN_PRODUCTION=yes): no real money is charged",
    );
  const sandboxGateway =
    config.paymentProvider === "sandbox"
      ? createSandboxGateway({ store, clock, notificationSecret: config.paymentNotificationSecret })
      : null;
  const gateway = paymentGateway(config, sandboxGateway);
  const payments = createPaymentService({
    orders,
    orderLifecycle,
    gateway,
    clock,
    logger,
    timeoutMs: config.paymentTimeoutMs,
    reconcileAfterMs: config.paymentReconcileAfterMs,
    onPaid: (order) => fulfilment.orderPaid(order),
    counted,
    // PayPal's own payments are PayPal's wherever cards go (app/payments/combined.server.ts).
    providerOf: (method) => (method === "paypal" ? "paypal" : config.paymentProvider),
  });
  // Refunds go back through the gateway that took the payments (docs/buying.md, "Refunds").
  const refunds = createRefunds({
    orders,
    ledger: createRefundLedger({ store, clock, memberships }),
    vouchers,
    catalogue,
    gateway,
    outbox,
    i18n,
    config,
    logger,
    placesFreed: availability.changed,
    counted,
  });
  // Settles payments nobody came back for (the buyer left the bank's page, a server died while
  // waiting): one server at a time, over the shared store, and none ever settles one twice.
  const reconciler = startReconciler(payments, config.paymentReconcileIntervalMs, logger, leases);
  const sweeper = startPeriodicJob({
    name: "hold-sweeper",
    intervalMs: SWEEP_INTERVAL_MS,
    leases,
    run: () => inventory.sweepExpired(),
    onError: (error) => logger.warn({ err: error }, "sweeping expired holds failed"),
  });

  const seatMaps = createSeatMaps(store, clock);
  const waitingRoom = createWaitingRooms(store, clock, config.waitingRoom);
  // 32 MB of the pages a crowd reads: about 80 seat maps of the largest house; 8 MB of pages kept
  // for one address so far; 1 MB of digests asked for once.
  const pages = pageCache({ maxBytes: 32 * 1024 * 1024, newBytes: 8 * 1024 * 1024, askedOnceBytes: 1024 * 1024 });
  metrics.watch({
    queues: () => waitingRoom.roomStatuses(),
    caches: () => [...pages.stats(), seatMaps.cacheStats()],
    pool: () => store.poolStats?.() ?? null,
  });

  return {
    config,
    i18n,
    sessions,
    tracker: createLogTracker(logger),
    clock,
    store,
    catalogue,
    inventory,
    availability,
    seatSearch: createSeatSearch(store, clock),
    seatMaps,
    promotions,
    vouchers,
    orders,
    baskets,
    reservations: createReservations(store, clock, config.holdPolicy, facts),
    summaries,
    orderViews,
    orderCalendars,
    orderLifecycle,
    outbox,
    sandboxGateway,
    payments,
    refunds,
    auth: createAuth(store, clock),
    customers: createCustomers(store, clock),
    memberships,
    staff: createStaff(store, clock),
    checkIn: createCheckIn(store, clock),
    performanceReports: createPerformanceReports(store, clock),
    boxOffice: createBoxOffice({
      search: createOrderSearch(store),
      refunds,
      fulfilment,
      cardProvider: config.paymentProvider,
      defaultTimeZone: config.market.timeZone,
    }),
    // House seats and comps take seats off sale as holds and sales do: the availability cache hears.
    houseSeats: createHouseSeats(store, clock, availability.changed),
    comps: createComps({ compOrders: createCompOrders(store, clock, availability.changed), fulfilment, logger }),
    waitingRoom,
    pages,
    metrics,
    ready: async () => {
      await sql`select 1`.execute(store.db);
      return true;
    },
    close: async () => {
      outbox.stop();
      await Promise.all([sweeper.stop(), outboxJob.stop(), reconciler.stop()]);
      await feed.close();
      await store.close();
    },
  };
}

/** The gateway the payment service talks to: the card provider, with PayPal beside it when configured. */
function paymentGateway(config: Config, sandbox: SandboxGateway | null): PaymentGateway {
  const { stripe } = config;
  // Configuration makes one of them exist (PAYMENT_PROVIDER, and Stripe's settings with it).
  const cards = sandbox ?? (stripe && createStripeGateway({ ...stripe, publicUrl: config.publicUrl }));
  if (!cards) throw new Error(`no card provider for PAYMENT_PROVIDER=${config.paymentProvider}`);
  if (!config.paypal) return cards;
  return combineGateways(
    cards,
    createPayPalGateway({
      clientId: config.paypal.clientId,
      clientSecret: config.paypal.clientSecret,
      environment: config.paypal.environment,
      webhookId: config.paypal.webhookId,
      apiUrl: config.paypal.apiUrl,
      publicUrl: config.publicUrl,
    }),
  );
}
