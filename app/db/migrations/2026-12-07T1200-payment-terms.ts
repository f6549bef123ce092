import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // What an attempt asked of the gateway, kept with it (issue 53 item 5): every path that may turn
  // an authorisation into a sale (the call's answer, the webhook, the return from the bank or
  // PayPal, the reconciler) checks the answer against the same terms, whichever arrives first.
  // `currency` is the order's; `accepted_brands` the card brands the payment may be made with,
  // comma-separated (null: no brand rule, as for PayPal).
  await db.schema.alterTable("order_payments").addColumn("currency", "text").execute();
  await db.schema.alterTable("order_payments").addColumn("accepted_brands", "text").execute();
  await sql`update order_payments set currency = (select orders.currency from orders where orders.id = order_payments.order_id)`.execute(
    db,
  );
  // Attempts made before: a card took any brand the checkout knows.
  await sql`update order_payments set accepted_brands = 'visa,mastercard,amex' where method = 'card'`.execute(db);
}
