// `npm run refund -- ORDER [--tickets T1,T2] [--reason TEXT]` (`refund` in the container): refunds a
// paid order, whole or the tickets named, through the provider that took the payment; frees the
// seats, voids the e-tickets and emails the buyer. Safe to run again: what is done is said so, and
// a refund left half-done is finished. A ticket is named by its barcode (printed on the e-ticket),
// its seat as row and number ("B12"), or its id. Exit codes: 0 refunded (or already), 1 refused,
// 2 bad usage. It needs the site's environment (the payment provider's settings; in production
// SESSION_SECRET and PAYMENT_PROVIDER), as the server does.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAppServices } from "~/composition/app-services.server";
import { ConfigError, loadConfig } from "~/config/env.server";
import { migrateToLatest } from "~/db/migrate.server";
import { formatMoney } from "~/i18n/format";
import { createLogger } from "~/logging/logger.server";
import type { RefundAnswer } from "~/use-cases/refunds.server";

const USAGE = "Usage: npm run refund -- ORDER [--tickets BARCODE_OR_SEAT,…] [--reason TEXT]";

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { tickets: { type: "string" }, reason: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
}
try {
  parsed = parse();
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) {
  console.error(USAGE);
  process.exit(2);
}
const orderNumber = positionals[0]!;
const tickets = values.tickets
  ?.split(",")
  .map((ticket) => ticket.trim())
  .filter(Boolean);
if (values.tickets !== undefined && !tickets?.length) {
  console.error(`--tickets names no ticket.\n${USAGE}`);
  process.exit(2);
}

/** The project's root (locales/ is read from it): from scripts/ under tsx, build/server/scripts/ compiled. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
// Warnings and errors only: what the command did is its own output below.
const logger = createLogger(process.env.LOG_LEVEL ?? "warn", process.stderr);
const services = await createAppServices({ config, logger, root: projectRoot(), prepare: false });
let code = 1;
try {
  await migrateToLatest(services.store.db);
  const answer = await services.refunds.refund(orderNumber, { tickets, reason: values.reason ?? null });
  code = report(answer);
  // Sends the buyer's email now; one the mail server turns away stays queued for the site to retry.
  if (answer.ok && answer.outcome === "refunded") await services.outbox.deliverDue();
} catch (error) {
  console.error(error);
  code = 1;
} finally {
  await services.close();
}
process.exit(code);

function report(answer: RefundAnswer): number {
  const money = (amount: number, currency: string) =>
    formatMoney(amount, currency, currency === "USD" ? "en-US" : "en-GB");
  if (answer.ok) {
    const { order } = answer;
    if (answer.outcome === "alreadyRefunded") {
      console.log(`Order ${order.number} is already refunded: nothing was done.`);
      return 0;
    }
    const { refund } = answer;
    console.log(
      `Refunded ${money(refund.amount, order.currency)} of order ${order.number} (${refund.whole ? "the whole order" : "some tickets"}).`,
    );
    if (refund.card_amount > 0) console.log(`  To the card: ${money(refund.card_amount, order.currency)}.`);
    for (const part of answer.toVouchers)
      console.log(`  To voucher ${part.number}: ${money(part.amount, order.currency)}.`);
    for (const ticket of answer.tickets) console.log(`  Void, its place back on sale: ${ticket}`);
    console.log(`  Email to the buyer: queued.`);
    if (order.refund_status === "partlyRefunded") console.log(`  The rest of the order stands.`);
    return 0;
  }
  switch (answer.reason) {
    case "unknownOrder":
      console.error(`No order ${orderNumber}.`);
      return 1;
    case "notPaid":
      console.error(`Order ${answer.order.number} is not paid (${answer.order.status}): there is nothing to refund.`);
      return 1;
    case "ticketNotInOrder":
    case "ambiguousTicket":
      console.error(
        answer.reason === "ticketNotInOrder"
          ? `Not a ticket of this order: ${answer.given.join(", ")}.`
          : `More than one ticket of this order matches ${answer.given.join(", ")}: name it by its barcode.`,
      );
      console.error("The order's tickets (barcode, seat, name):");
      for (const ticket of answer.tickets)
        console.error(
          `  ${ticket.barcode}  ${ticket.seat ?? "-"}  ${ticket.label}${ticket.refunded ? "  (refunded)" : ""}`,
        );
      return 1;
    case "ticketsAlreadyRefunded":
      console.error(`Already refunded (or being refunded): ${answer.tickets.join("; ")}. Nothing was done.`);
      return 1;
    case "noCapturedPayment":
      console.error(`Order ${answer.order.number} has no captured payment to refund through. Nothing was done.`);
      return 1;
    case "providerRefused":
      console.error(
        `The payment provider refused the refund of order ${answer.order.number}. Nothing was given back and no seat was released.`,
      );
      return 1;
    case "providerError":
      console.error(
        `The payment provider did not answer about order ${answer.order.number}. The refund is recorded as pending: run this command again to finish it (it will not refund twice).`,
      );
      return 1;
  }
}
