import { join, resolve } from "node:path";
import { sql } from "kysely";
import type { Logger } from "pino";
import { systemClock, type Clock } from "~/clock";
import type { Config } from "~/config/env.server";
import type { AppServices } from "~/composition/context";
import { openStore } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createLogTracker } from "~/services/tracker.server";
import { createI18nService, readLocaleFiles } from "~/i18n/i18n.server";
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
import { createFulfilment } from "~/services/fulfilment.server";
import { createOrderViews } from "~/services/order-view.server";
import { createSummaries } from "~/services/summary.server";
import { createMailTransport, createOutbox } from "~/services/email/outbox.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { createAuth } from "~/services/auth.server";
import { createCustomers } from "~/services/customers.server";
import { createPaymentService, startReconciler } from "~/services/payments.server";

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** The project's root folder (locales/ and catalogue/ are read from it; DATA_DIR is relative to it). */
  root: string;
  clock?: Clock;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Builds everything a request needs, once: opens the store and brings it to the latest migration,
 * loads the demo catalogue into an empty store (DEMO_CATALOGUE=auto), and starts the sweeper that
 * frees expired holds. The server does this at start-up, tests per suite.
 */
export async function createAppServices({
  config,
  logger,
  root,
  clock = systemClock,
}: ServiceOptions): Promise<AppServices> {
  const sessions = createSessionService(config);
  const i18n = createI18nService(readLocaleFiles(join(root, "locales")), config.language, sessions.languageCookie);
  const store = openStore(config.databaseUrl, resolve(root, config.dataDir, "box-office.sqlite"), (error) =>
    logger.warn({ err: error }, "database connection lost; the pool will reconnect"),
  );
  const applied = await migrateToLatest(store.db);
  if (applied.length) logger.info({ migrations: applied }, "migrations applied");
  if (config.demoCatalogue === "auto" && (await isCatalogueEmpty(store))) {
    try {
      const summary = await loadDemoCatalogue(store, clock, root);
      logger.info(summary, "demo catalogue loaded");
    } catch (error) {
      // Another instance starting at the same moment may have loaded it first.
      if (await isCatalogueEmpty(store)) throw error;
      logger.info("demo catalogue already loaded by another instance");
    }
  }
  const availability = createAvailability(store, clock, {
    thresholds: config.availabilityThresholds,
    maxAgeMs: config.availabilityMaxAgeMs,
  });
  const inventory = createInventory(store, clock, config.holdPolicy, availability.changed);
  const facts = createCatalogueFacts(store, clock);
  const baskets = createBaskets(store, clock, facts);
  const orders = createOrders(store, clock);
  const promotions = createPromotions(store, clock);
  const vouchers = createVouchers(store, clock);
  const memberships = createMemberships(store, clock);
  const orderLifecycle = createOrderLifecycle({ store, baskets, orders, promotions, vouchers, inventory, memberships });
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
  outbox.start();
  const catalogue = createCatalogue(store, clock);
  const summaries = createSummaries({ catalogue, vouchers });
  const orderViews = createOrderViews({ orders, catalogue, summaries });
  const fulfilment = createFulfilment({ orders, catalogue, orderViews, i18n, outbox, config, logger });
  // The built-in sandbox is the only gateway so far; a real provider's adapter would be chosen
  // here by PAYMENT_URL (README, "Taking real payments").
  const sandboxGateway = createSandboxGateway({ store, clock, notificationSecret: config.paymentNotificationSecret });
  const payments = createPaymentService({
    orders,
    orderLifecycle,
    gateway: sandboxGateway,
    clock,
    logger,
    timeoutMs: config.paymentTimeoutMs,
    reconcileAfterMs: config.paymentReconcileAfterMs,
    onPaid: (order) => fulfilment.orderPaid(order),
  });
  // Settles payments nobody came back for (the buyer left the bank's page, a server died while
  // waiting): every server runs one, over the shared store, and they never settle one twice.
  const reconciler = startReconciler(payments, config.paymentReconcileIntervalMs, logger);
  const sweeper = setInterval(() => {
    inventory.sweepExpired().catch((error: unknown) => logger.warn({ err: error }, "sweeping expired holds failed"));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

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
    seatMaps: createSeatMaps(store, clock),
    promotions,
    vouchers,
    orders,
    baskets,
    reservations: createReservations(store, clock, config.holdPolicy, facts),
    summaries,
    orderViews,
    orderLifecycle,
    outbox,
    sandboxGateway,
    payments,
    auth: createAuth(store, clock),
    customers: createCustomers(store, clock),
    memberships,
    ready: async () => {
      await sql`select 1`.execute(store.db);
      return true;
    },
    close: async () => {
      clearInterval(sweeper);
      outbox.stop();
      await reconciler.stop();
      await store.close();
    },
  };
}
