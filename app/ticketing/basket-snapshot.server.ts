import type { Selectable } from "kysely";
import * as postgresJson from "kysely/helpers/postgres";
import * as sqliteJson from "kysely/helpers/sqlite";
import type { Store } from "~/db/connection.server";
import type { BasketTable, OrderTable, PromoCodeTable } from "~/db/schema";

// Everything a checkout request reads about one basket, in one statement: the basket's row, its
// latest hold and the performance that hold is for, the places its holds still mark held, its
// extras, vouchers, promo code and order. A request reads it once and derives the reservation,
// the answers and the price from it (baskets.server.ts, reservation-view.server.ts), instead of
// a dozen round trips to the database (issue 19: at most 40 statements per order on PostgreSQL).

/** The basket's latest hold, with what its pages say of the performance. */
export interface SnapshotHold {
  id: string;
  created_at: string;
  expires_at: string;
  performance_id: string;
  starts_at: string;
  seat_limit: number;
  notice: string | null;
  admission_message: string | null;
  /** The performance's access services, comma-separated (catalogue-file ACCESS_SERVICES). */
  access_services: string;
  access_notes: string | null;
  title_slug: string;
  title_name: string;
  venue_slug: string;
  venue_name: string;
  support_phone: string;
  time_zone: string;
  currency: string;
  country: string;
}

/** A seat one of the basket's holds marks held; whether it is still held is a matter of `held_until`. */
export interface SnapshotSeat {
  hold_id: string;
  performance_id: string;
  seat_id: number;
  price_option_id: string | null;
  held_until: string;
  price_band_id: string;
  section: string;
  section_order: number;
  row_name: string;
  row_order: number;
  position: number;
  label: string;
  seat_type: string;
  restrictions: string;
  view_note: string | null;
  /** The access services the seat suits, comma-separated. */
  suits: string;
}

export interface SnapshotStanding {
  id: string;
  hold_id: string;
  performance_id: string;
  section_id: string;
  section: string;
  section_order: number;
  quantity: number;
  price_option_id: string | null;
  held_until: string;
  price_band_id: string;
}

export interface BasketSnapshot {
  basket: Selectable<BasketTable>;
  /** The latest hold, live or expired (its page says so); null when the basket never held any. */
  hold: SnapshotHold | null;
  /** In seat order. */
  seats: SnapshotSeat[];
  standing: SnapshotStanding[];
  extras: { extra_id: string; quantity: number }[];
  /** In the order they were applied (the first is spent first). */
  vouchers: { id: string; balance: number }[];
  promo: (Omit<PromoCodeTable, "used_count"> & { used_count: number }) | null;
  order: OrderTable | null;
}

// SQLite's json_object needs every column named, so the promo code's and the order's are listed;
// the `satisfies` checks below fail to compile when a table gains a column these lists lack.
const PROMO_COLUMNS = [
  "id",
  "code",
  "rule_key",
  "percent",
  "amount",
  "currency",
  "price_option_kind",
  "special_face_value",
  "scope_kind",
  "scope_ref",
  "valid_from",
  "valid_until",
  "usage_limit",
  "used_count",
] as const;
const ORDER_COLUMNS = [
  "id",
  "number",
  "basket_id",
  "status",
  "currency",
  "customer_name",
  "email",
  "performance_id",
  "show_name",
  "delivery_method",
  "lines",
  "total",
  "to_pay",
  "promo_code_id",
  "created_at",
  "updated_at",
  "contacts",
  "paid_at",
  "language",
  "access_key",
  "customer_id",
  "refund_status",
] as const;
type Covers<Table, Listed> = Exclude<keyof Table, Listed> extends never ? true : false;
true satisfies Covers<PromoCodeTable, (typeof PROMO_COLUMNS)[number]>;
true satisfies Covers<OrderTable, (typeof ORDER_COLUMNS)[number]>;

/** SQLite hands JSON back as text, PostgreSQL already parsed. */
function parsed<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

export function basketSnapshots(store: Store) {
  const { db } = store;
  const { jsonArrayFrom, jsonObjectFrom } = store.dialect === "postgres" ? postgresJson : sqliteJson;

  // The statement is built and compiled once (Kysely would rebuild its hundred-odd nodes on every
  // request, a few per cent of the server's CPU under load); each read swaps its basket id in for
  // the placeholder. Nothing else in it varies.
  const query = (basketId: string) =>
    db
      .selectFrom("baskets")
      .selectAll("baskets")
      .select((eb) => [
        jsonArrayFrom(
          eb
            .selectFrom("holds")
            .innerJoin("performances", "performances.id", "holds.performance_id")
            .innerJoin("runs", "runs.id", "performances.run_id")
            .innerJoin("titles", "titles.id", "runs.title_id")
            .innerJoin("venues", "venues.id", "runs.venue_id")
            .select([
              "holds.id",
              "holds.created_at",
              "holds.expires_at",
              "holds.performance_id",
              "performances.starts_at",
              "performances.seat_limit",
              "performances.notice",
              "performances.admission_message",
              "performances.access_services",
              "performances.access_notes",
              "titles.slug as title_slug",
              "titles.name as title_name",
              "venues.slug as venue_slug",
              "venues.name as venue_name",
              "venues.support_phone",
              "venues.time_zone",
              "venues.currency",
              "venues.country",
            ])
            // Every hold the basket has had (a few at most), the latest picked below: an ORDER BY
            // with LIMIT here costs SQLite ten times the rest of the statement.
            .whereRef("holds.basket_id", "=", "baskets.id"),
        ).as("holds"),
        jsonArrayFrom(
          eb
            .selectFrom("seat_claims")
            .innerJoin("holds", "holds.id", "seat_claims.hold_id")
            .innerJoin("performances", "performances.id", "seat_claims.performance_id")
            .innerJoin("price_plan_seats", (join) =>
              join
                .onRef("price_plan_seats.seat_id", "=", "seat_claims.seat_id")
                .onRef("price_plan_seats.price_plan_id", "=", "performances.price_plan_id"),
            )
            .innerJoin("seats", "seats.id", "seat_claims.seat_id")
            .innerJoin("sections", "sections.id", "seats.section_id")
            .select([
              "holds.id as hold_id",
              "seat_claims.performance_id",
              "seat_claims.seat_id",
              "seat_claims.price_option_id",
              "seat_claims.held_until",
              "price_plan_seats.price_band_id",
              "sections.name as section",
              "sections.sort_order as section_order",
              "seats.row_name",
              "seats.row_order",
              "seats.position",
              "seats.label",
              "seats.seat_type",
              "seats.restrictions",
              "seats.view_note",
              "seats.suits",
            ])
            .whereRef("holds.basket_id", "=", "baskets.id")
            .where("seat_claims.status", "=", "held"),
        ).as("seats"),
        jsonArrayFrom(
          eb
            .selectFrom("standing_claims")
            .innerJoin("holds", "holds.id", "standing_claims.hold_id")
            .innerJoin("performances", "performances.id", "standing_claims.performance_id")
            .innerJoin("price_plan_areas", (join) =>
              join
                .onRef("price_plan_areas.section_id", "=", "standing_claims.section_id")
                .onRef("price_plan_areas.price_plan_id", "=", "performances.price_plan_id"),
            )
            .innerJoin("sections", "sections.id", "standing_claims.section_id")
            .select([
              "standing_claims.id",
              "holds.id as hold_id",
              "standing_claims.performance_id",
              "standing_claims.section_id",
              "sections.name as section",
              "sections.sort_order as section_order",
              "standing_claims.quantity",
              "standing_claims.price_option_id",
              "standing_claims.held_until",
              "price_plan_areas.price_band_id",
            ])
            .whereRef("holds.basket_id", "=", "baskets.id")
            .where("standing_claims.status", "=", "held"),
        ).as("standing"),
        jsonArrayFrom(
          eb
            .selectFrom("basket_extras")
            .select(["basket_extras.extra_id", "basket_extras.quantity"])
            .whereRef("basket_extras.basket_id", "=", "baskets.id"),
        ).as("extras"),
        jsonArrayFrom(
          eb
            .selectFrom("basket_vouchers")
            .innerJoin("vouchers", "vouchers.id", "basket_vouchers.voucher_id")
            .select(["vouchers.id", "vouchers.balance", "basket_vouchers.applied_at"])
            .whereRef("basket_vouchers.basket_id", "=", "baskets.id"),
        ).as("vouchers"),
        jsonObjectFrom(
          eb
            .selectFrom("promo_codes")
            .select(PROMO_COLUMNS.map((column) => `promo_codes.${column}` as const))
            .whereRef("promo_codes.id", "=", "baskets.promo_code_id"),
        ).as("promo"),
        jsonObjectFrom(
          eb
            .selectFrom("orders")
            .select(ORDER_COLUMNS.map((column) => `orders.${column}` as const))
            .whereRef("orders.basket_id", "=", "baskets.id"),
        ).as("basket_order"),
      ])
      .where("baskets.id", "=", basketId);
  const PLACEHOLDER = "\u0000basket id";
  type SnapshotRow = Awaited<ReturnType<ReturnType<typeof query>["executeTakeFirstOrThrow"]>>;
  let compiled: ReturnType<ReturnType<typeof query>["compile"]> | undefined;

  return async function snapshot(basketId: string): Promise<BasketSnapshot | undefined> {
    compiled ??= query(PLACEHOLDER).compile();
    const { rows } = await db.executeQuery<SnapshotRow>({
      ...compiled,
      parameters: compiled.parameters.map((value) => (value === PLACEHOLDER ? basketId : value)),
    });
    const row = rows[0];
    if (!row) return undefined;
    const { holds, seats, standing, extras, vouchers, promo, basket_order: order, ...basket } = row;
    const latest = parsed(holds).reduce<SnapshotHold | null>(
      (found, hold) => (!found || hold.created_at > found.created_at ? hold : found),
      null,
    );
    return {
      basket,
      hold: latest,
      seats: parsed(seats).sort((a, b) => a.seat_id - b.seat_id) as SnapshotSeat[],
      standing: (parsed(standing) as SnapshotStanding[]).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      extras: parsed(extras),
      vouchers: parsed(vouchers)
        .sort((a, b) => (a.applied_at < b.applied_at ? -1 : a.applied_at > b.applied_at ? 1 : 0))
        .map(({ id, balance }) => ({ id, balance })),
      promo: parsed(promo) as BasketSnapshot["promo"],
      order: parsed(order) as OrderTable | null,
    };
  };
}

export type BasketSnapshots = ReturnType<typeof basketSnapshots>;
