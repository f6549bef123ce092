import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { Store } from "~/db/connection.server";
import type { PromoCodeTable, VoucherTable } from "~/db/schema";
import { hashRedemptionCode } from "~/ticketing/vouchers.server";

/** A promo code's row: 10% off everything, valid all through 2026, unlimited, unless told otherwise. */
export function promoRow(values: Partial<Insertable<PromoCodeTable>> = {}) {
  const id = values.id ?? randomUUID();
  return {
    id,
    code: `P${id.slice(0, 8).toUpperCase()}`,
    rule_key: "percentageOff",
    percent: 10,
    amount: null,
    currency: null,
    price_option_kind: null,
    special_face_value: null,
    scope_kind: "all",
    scope_ref: null,
    valid_from: "2026-01-01T00:00:00.000Z",
    valid_until: "2027-01-01T00:00:00.000Z",
    usage_limit: null,
    ...values,
  } satisfies Insertable<PromoCodeTable>;
}

/** A promo code straight into the store (`promoRow`'s defaults). */
export async function insertPromo(store: Store, values: Partial<Insertable<PromoCodeTable>> = {}): Promise<string> {
  const row = promoRow(values);
  await store.db.insertInto("promo_codes").values(row).execute();
  return row.id;
}

/** A GBP voucher straight into the store, redemption code "CODE1" unless told otherwise. */
export async function insertVoucher(
  store: Store,
  values: Partial<Omit<Insertable<VoucherTable>, "code_hash">> & { redemptionCode?: string } = {},
): Promise<string> {
  const { redemptionCode = "CODE1", ...rest } = values;
  const id = rest.id ?? randomUUID();
  await store.db
    .insertInto("vouchers")
    .values({
      id,
      number: `GV${id.slice(0, 8).toUpperCase()}`,
      code_hash: hashRedemptionCode(redemptionCode),
      kind: "voucher",
      currency: "GBP",
      balance: 5000,
      expires_at: "2028-01-01T00:00:00.000Z",
      created_at: "2026-01-01T00:00:00.000Z",
      ...rest,
    })
    .execute();
  return id;
}
