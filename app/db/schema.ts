import type { Generated } from "kysely";

// The tables, as Kysely sees them. Times are ISO-8601 UTC strings (Date#toISOString), which sort
// and compare correctly as text on both SQLite and PostgreSQL; money is integer minor units;
// booleans are 0/1; lists are comma-separated keys.

export interface VenueTable {
  id: string;
  slug: string;
  name: string;
  country: "GB" | "US";
  currency: "GBP" | "USD";
  time_zone: string;
  wording_set: string;
  support_phone: string;
  address_lines: string;
  city: string;
  postcode: string;
  region: string | null;
  transaction_fee: number;
  protection_fee: number;
  /** What the venue page says about access; null when the catalogue said nothing. */
  access_info: string | null;
  /** How to get there. */
  travel_info: string | null;
  /** When the catalogue import added it (null: before this was recorded). */
  imported_at: Generated<string | null>;
}

export interface TitleTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  age_guidance: string;
  running_time_minutes: number;
  image_url: string | null;
  access_info: string | null;
  /** The catalogue's genre ("play", "musical", "music", …); null when it gave none. */
  genre: Generated<string | null>;
  /** Who performs, as JSON: [{ "name": …, "kind": "person" | "group" }]. */
  performers: Generated<string>;
  /** When the catalogue import added it (null: before this was recorded). */
  imported_at: Generated<string | null>;
  /** What it warns of: schema.org accessibilityHazard values, comma-separated ("" for nothing said). */
  access_hazards: Generated<string>;
}

/** A show's poster or hero picture, made by the import (app/ticketing/catalogue-pictures.server.ts). */
export interface TitlePictureTable {
  title_id: string;
  role: "poster" | "hero";
  alt: string;
  /** The largest size's, which every size shares the shape of. */
  width: number;
  height: number;
  /** JSON: [{ format, width, height, file }], each file under DATA_DIR/images. */
  sources: string;
}

export interface SeatMapTable {
  id: string;
  venue_id: string;
  name: string;
}

export interface SectionTable {
  id: string;
  seat_map_id: string;
  name: string;
  sort_order: number;
  /** "seated" (seats) or "standing" (a general-admission area with a capacity). */
  kind: "seated" | "standing";
  capacity: number;
}

export interface SeatTable {
  id: number;
  seat_map_id: string;
  section_id: string;
  row_name: string;
  row_order: number;
  label: string;
  /** Order within the row; an aisle leaves a gap, so seats are adjacent when positions differ by 1. */
  position: number;
  x: number;
  y: number;
  seat_type: "standard" | "package" | "promotional" | "access" | "wheelchair" | "companion";
  restrictions: string;
  quality: number;
  view_note: string | null;
  /** Access services the seat suits (catalogue-file ACCESS_SERVICES), comma-separated; "" for none. */
  suits: Generated<string>;
}

export interface RunTable {
  id: string;
  title_id: string;
  venue_id: string;
  seat_map_id: string;
}

export interface PricePlanTable {
  id: string;
  run_id: string;
  name: string;
}

export interface PriceBandTable {
  id: string;
  price_plan_id: string;
  code: string;
  name: string;
  sort_order: number;
}

export interface PricePlanSeatTable {
  price_plan_id: string;
  seat_id: number;
  price_band_id: string;
}

export interface PricePlanAreaTable {
  price_plan_id: string;
  section_id: string;
  price_band_id: string;
}

export interface PriceOptionTable {
  id: string;
  price_band_id: string;
  kind: "full" | "concession" | "child" | "member" | "promo";
  label: string;
  face_value: number;
  booking_fee: number;
  sort_order: number;
}

export interface PerformanceTable {
  id: string;
  run_id: string;
  price_plan_id: string;
  starts_at: string;
  on_sale_from: string;
  on_sale_until: string;
  presale_from: string | null;
  presale_until: string | null;
  /** Who may buy during presale: comma-separated ("plus-member", "promo"). */
  presale_audience: string;
  /** A scheduled on-sale's waiting room opens then (its pre-queue); null without one. */
  queue_opens_at: Generated<string | null>;
  seat_limit: number;
  notice: string | null;
  admission_message: string | null;
  timed_entry: string | null;
  /** Access services (catalogue-file ACCESS_SERVICES), comma-separated; "" for none. */
  access_services: Generated<string>;
  access_notes: Generated<string | null>;
  /** Sellable places: seats that are not withheld plus standing capacity. */
  capacity: number;
  status: "on_sale" | "cancelled";
}

export interface ExtraTable {
  id: string;
  venue_id: string;
  name: string;
  description: string;
  price: number;
  sort_order: number;
}

export interface DeliveryMethodTable {
  id: string;
  venue_id: string;
  kind: "eTicket" | "post" | "boxOffice";
  fee: number;
  countries: string;
  sort_order: number;
}

export interface BasketTable {
  id: string;
  created_at: string;
  updated_at: string;
  /** 1: protect my tickets; 0: no thanks; null: not answered. */
  protection_choice: number | null;
  delivery_method_id: string | null;
  promo_code_id: string | null;
  /** The price fingerprint the buyer last saw and accepted. */
  last_seen_prices: string | null;
  /** 1 once the buyer has answered the extras step (choosing none is an answer). */
  extras_done: Generated<number>;
  /** The contact details step's answers as JSON (ContactDetails); null until given. */
  contacts: string | null;
  /** The paid membership, when the basket carries it. */
  membership_product_id: string | null;
}

export interface VenueQuestionTable {
  id: string;
  venue_id: string;
  /** "choice": pick one of the options; "text": a free answer. */
  kind: "choice" | "text";
  label: string;
  /** The choices, separated by "|". */
  options: string;
  sort_order: number;
}

export interface BasketExtraTable {
  basket_id: string;
  extra_id: string;
  quantity: number;
}

export interface BasketVoucherTable {
  basket_id: string;
  voucher_id: string;
  applied_at: string;
}

export interface HoldTable {
  id: string;
  basket_id: string;
  performance_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * One row per seat that is not free for one performance. The primary key is the lock: two
 * inserts for the same seat cannot both succeed, on SQLite or PostgreSQL, in one process or many.
 * A held row whose held_until has passed counts as free everywhere.
 */
export interface SeatClaimTable {
  performance_id: string;
  seat_id: number;
  /** "house": kept off sale by the box office (house_seats says why); taken, like sold and withheld. */
  status: "held" | "sold" | "withheld" | "house";
  hold_id: string | null;
  held_until: string | null;
  order_id: string | null;
  /** The price option the buyer chose for this ticket; the band's Full Price when null. */
  price_option_id: string | null;
}

/** Why a house seat (a seat_claims row of status "house") is kept off sale, by whom, since when. */
export interface HouseSeatTable {
  performance_id: string;
  seat_id: number;
  reason: string;
  /** The staff account that held it; null for the operator's command line. */
  staff_id: string | null;
  held_at: string;
}

export interface StandingClaimTable {
  id: string;
  performance_id: string;
  section_id: string;
  quantity: number;
  status: "held" | "sold";
  hold_id: string | null;
  held_until: string | null;
  order_id: string | null;
  price_option_id: string | null;
}

export type PromoRuleKey = "percentageOff" | "amountOff" | "specialPrice" | "unlockPresale" | "unlockPromoSeats";

export interface PromoCodeTable {
  id: string;
  /** Upper case; buyers' input is normalised before lookup. */
  code: string;
  rule_key: PromoRuleKey;
  percent: number | null;
  amount: number | null;
  currency: string | null;
  price_option_kind: string | null;
  special_face_value: number | null;
  scope_kind: "all" | "show" | "venue" | "performance";
  scope_ref: string | null;
  valid_from: string;
  valid_until: string;
  /** null: unlimited; 1: single-use. */
  usage_limit: number | null;
  used_count: Generated<number>;
}

export interface VoucherTable {
  id: string;
  number: string;
  /** scrypt of the redemption (access) code; the code itself is never stored. */
  code_hash: string;
  kind: "voucher" | "giftCard";
  currency: string;
  balance: number;
  expires_at: string;
  created_at: string;
}

export interface VoucherMovementTable {
  id: string;
  voucher_id: string;
  /** Negative when spent, positive when money goes back. */
  amount: number;
  reason: "issued" | "redeemed" | "refunded";
  order_id: string | null;
  created_at: string;
}

export interface GuessAttemptTable {
  key: string;
  failures: number;
  first_failure_at: string;
  locked_until: string | null;
}

export interface OrderTable {
  id: string;
  number: string;
  basket_id: string;
  status: "pending_payment" | "paid" | "failed" | "cancelled";
  currency: string;
  customer_name: string;
  email: string;
  performance_id: string | null;
  show_name: string;
  delivery_method: string | null;
  /** The itemised prices (PricedBasket) as JSON, as the buyer agreed to them. */
  lines: string;
  total: number;
  to_pay: number;
  promo_code_id: string | null;
  created_at: string;
  updated_at: string;
  /** The contact details (ContactDetails) as JSON, copied from the basket when the order is placed. */
  contacts: string | null;
  paid_at: string | null;
  language: string | null;
  /** The secret in the e-tickets link; unguessable, unlike the order number. */
  access_key: string | null;
  customer_id: string | null;
  /** Null until something is refunded; the status stays "paid" (decision 0041). */
  refund_status: "partlyRefunded" | "refunded" | null;
}

export interface CustomerTable {
  id: string;
  /** As the customer typed it, for their emails. */
  email: string;
  /** Trimmed and lower-cased: what sign-in and registration match on. */
  email_key: string;
  /** scrypt, with its parameters and salt: `scrypt$N$r$p$salt$hash`. */
  password_hash: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  /** The saved delivery address (Address) as JSON. */
  address: string | null;
  contact_consent: number;
  created_at: string;
  updated_at: string;
}

export interface MembershipProductTable {
  id: string;
  kind: "plus";
  name: string;
  currency: string;
  price: number;
  months: number;
}

export interface MembershipTable {
  id: string;
  customer_id: string;
  kind: "plus";
  /** The order that bought this period. */
  order_id: string | null;
  starts_at: string;
  ends_at: string;
  created_at: string;
}

export interface AccessRegistrationTable {
  customer_id: string;
  /** 1: a wheelchair user, who books wheelchair spaces. */
  wheelchair: number;
  /** How many companion seats they book beside a wheelchair space (0–2). */
  companions: number;
  other_needs: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthSessionTable {
  /** SHA-256 of the token in the customer's cookie. */
  id: string;
  customer_id: string;
  created_at: string;
  expires_at: string;
}

export interface PasswordResetTable {
  /** SHA-256 of the token in the emailed link. */
  id: string;
  customer_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SignUpLinkTable {
  /** SHA-256 of "sign-up:" and the token in the emailed link. */
  id: string;
  email: string;
  email_key: string;
  first_name: string;
  last_name: string;
  order_id: string | null;
  return_to: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OrderPaymentTable {
  id: string;
  order_id: string;
  method: "card" | "paypal" | "googlePay" | "applePay" | "voucher";
  amount: number;
  /**
   * attempted: sent to the gateway, no answer yet; action: the buyer must complete a step at the
   * gateway (device data, 3-D Secure, PayPal approval); succeeded: authorised and captured;
   * failed: declined or refused; timedOut: no answer in time (voided when one arrives); voided:
   * authorised but given back (the hold expired first).
   */
  status: "attempted" | "action" | "succeeded" | "failed" | "timedOut" | "voided";
  provider_reference: string | null;
  created_at: string;
  updated_at: string;
  idempotency_key: string | null;
  brand: string | null;
  last4: string | null;
  /** The gateway step the buyer must follow (GatewayAction) as JSON, while status is "action". */
  action: string | null;
  /** Why it failed: a PaymentFailure key. */
  failure: string | null;
  /** When the reconciler checked this ended attempt with the gateway (null: not yet, or in flight). */
  reconciled_at: string | null;
  /** The currency the attempt asked for (the order's), as an ISO code. */
  currency: string;
  /** The card brands the payment may be made with, comma-separated; null: no brand rule (PayPal). */
  accepted_brands: string | null;
}

/** A payment the built-in sandbox gateway holds (what a real provider keeps on its side). */
export interface SandboxPaymentTable {
  reference: string;
  idempotency_key: string;
  created_at: string;
  method: "card" | "paypal" | "googlePay" | "applePay";
  amount: number;
  currency: string;
  description: string;
  brand: "visa" | "mastercard" | "amex" | null;
  last4: string | null;
  return_url: string;
  cancel_url: string;
  /** hanging, awaiting:{step}, authorised or declined:{failure}. */
  state: string;
  /** The steps the buyer has been asked to take, comma-separated. */
  asked: string;
  exit_url: string | null;
  captured: number;
  refunded: number;
  voided: number;
}

/** One refund the sandbox made, by the refund's idempotency key. */
export interface SandboxRefundTable {
  idempotency_key: string;
  reference: string;
  amount: number;
  created_at: string;
}

/** A gateway notification already applied, by the gateway's event id. */
export interface PaymentNotificationTable {
  event_id: string;
  received_at: string;
}

export interface OrderTicketTable {
  id: string;
  order_id: string;
  ref: string;
  label: string;
  /** The value the e-ticket's QR code carries: random, unguessable, unique. */
  barcode: string;
  sort_order: number;
  /** The refund that took this ticket (pending or settled). */
  refund_id: string | null;
  /** Set when its refund is settled: the ticket admits nobody. */
  voided_at: string | null;
}

/**
 * A ticket admitted at the door: one row per ticket ever admitted, keyed by the ticket, so two
 * doors scanning it at once admit it once (decision 0060).
 */
export interface TicketCheckInTable {
  ticket_id: string;
  performance_id: string;
  order_id: string;
  checked_in_at: string;
  /** The door as it named itself ("Stalls door"). */
  door: string;
  /** Who scanned it, as the staff accounts name them. */
  staff_id: string;
}

/**
 * One refund of an order, whole or some of its tickets: recorded pending before the provider is
 * called, settled (succeeded) or refused after (decision 0041).
 */
export interface RefundTable {
  id: string;
  order_id: string;
  /** What was asked for: the order and its tickets. A refused refund may be asked for again. */
  request_key: string;
  /** What the provider sees; one per attempt. */
  idempotency_key: string;
  /** 1: the whole order (whatever was left of it). */
  whole: number;
  /** The tickets it takes, sorted, comma-separated. */
  ticket_ids: string;
  /** Everything given back, minor units: card_amount plus the voucher parts. */
  amount: number;
  card_amount: number;
  /** [{ voucherId, amount }] as JSON: what goes back onto each voucher. */
  voucher_parts: string;
  reason: string | null;
  status: "pending" | "succeeded" | "refused";
  /** The captured payment refunded at the provider (null when nothing went to the card). */
  provider_reference: string | null;
  created_at: string;
  settled_at: string | null;
}

export interface EmailOutboxTable {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  order_id: string | null;
  status: "queued" | "sent" | "failed";
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface QueueRoomTable {
  /** "site" for the deployment's room; a run's own room is "run:" and its id. */
  id: string;
  next_position: Generated<number>;
  shuffled_at: string | null;
  /** The last place let in: places are let in in order, so every later place below next_position waits. */
  admitted_through: Generated<number>;
  /** Entries admitted now (lapsed ones until the next admission sweeps them). */
  admitted_count: Generated<number>;
  /** Entries in the pre-queue, without a place until the draw. */
  pre_queued: Generated<number>;
}

/** Joins by one client address or session in the current window (issue 41). */
export interface QueueJoinTable {
  key: string;
  window_started_at: string;
  joins: number;
}

/** One batch of admissions: the per-minute limit and the wait estimate read the last few minutes'. */
export interface QueueAdmissionTable {
  room_id: string;
  admitted_at: string;
  admitted: number;
}

export interface QueueEntryTable {
  id: string;
  room_id: string;
  visitor_id: string;
  arrived_at: string;
  /** Null while in the pre-queue, until the places are drawn at the on-sale time. */
  position: number | null;
  state: "waiting" | "admitted" | "left";
  admitted_at: string | null;
  /** An admitted buyer's place is theirs until then; each request moves it on. */
  active_until: string | null;
  /** The one basket this admitted place may hold seats in (issue 41). */
  basket_id: string | null;
  /** A pre-queue entry's random draw, taken at arrival; the on-sale time orders by it. */
  draw: number | null;
}

/** Who may run a periodic job (sweeper, reconciler, outbox) until when: one process at a time. */
export interface JobLeaseTable {
  name: string;
  holder: string;
  until: string;
}

/**
 * A run's scheduled on-sale room: its limits only. When it opens and when the sale starts are its
 * performances' `queue_opens_at` and `on_sale_from`, stored once (decision 0029).
 */
export interface OnSaleRoomTable {
  run_id: string;
  active_buyers: number;
  new_buyers_per_minute: number | null;
}

/** A member of the venue's staff (decision 0059): apart from customers, never deleted, only removed. */
export interface StaffUserTable {
  id: string;
  /** Trimmed and lower-cased: what sign-in matches on; unique among current staff. */
  email: string;
  name: string;
  role: "door" | "boxOffice" | "manager";
  /** scrypt, with its parameters and salt, as customers' are. */
  password_hash: string;
  /** The TOTP secret, base32; null only for the door, who sign in by password alone. */
  totp_secret: string | null;
  /** The last TOTP time step accepted: a code of that step or before is refused (no replay). */
  last_totp_step: number | null;
  created_at: string;
  removed_at: string | null;
}

export interface StaffSessionTable {
  /** SHA-256 of "staff-session:" and the token in the staff cookie. */
  id: string;
  staff_id: string;
  created_at: string;
  /** The absolute end, however busy the session. */
  expires_at: string;
  /** The session ends when this is older than the idle limit. */
  last_seen_at: string;
}

/** Append-only: the database refuses UPDATE and DELETE (a trigger on each dialect). */
export interface StaffAuditTable {
  /** Counts up: the order the entries were written in. */
  id: Generated<number>;
  at: string;
  /** Who did it; null for the operator's command line. */
  staff_id: string | null;
  action: string;
  order_id: string | null;
  performance_id: string | null;
  /** JSON object: whatever else the entry says. */
  detail: Generated<string>;
}

export interface Database {
  venues: VenueTable;
  titles: TitleTable;
  title_pictures: TitlePictureTable;
  seat_maps: SeatMapTable;
  sections: SectionTable;
  seats: SeatTable;
  runs: RunTable;
  price_plans: PricePlanTable;
  price_bands: PriceBandTable;
  price_plan_seats: PricePlanSeatTable;
  price_plan_areas: PricePlanAreaTable;
  price_options: PriceOptionTable;
  performances: PerformanceTable;
  extras: ExtraTable;
  delivery_methods: DeliveryMethodTable;
  baskets: BasketTable;
  basket_extras: BasketExtraTable;
  basket_vouchers: BasketVoucherTable;
  holds: HoldTable;
  seat_claims: SeatClaimTable;
  house_seats: HouseSeatTable;
  standing_claims: StandingClaimTable;
  promo_codes: PromoCodeTable;
  vouchers: VoucherTable;
  voucher_movements: VoucherMovementTable;
  guess_attempts: GuessAttemptTable;
  orders: OrderTable;
  customers: CustomerTable;
  membership_products: MembershipProductTable;
  memberships: MembershipTable;
  access_registrations: AccessRegistrationTable;
  auth_sessions: AuthSessionTable;
  password_resets: PasswordResetTable;
  sign_up_links: SignUpLinkTable;
  order_payments: OrderPaymentTable;
  sandbox_payments: SandboxPaymentTable;
  sandbox_refunds: SandboxRefundTable;
  payment_notifications: PaymentNotificationTable;
  order_tickets: OrderTicketTable;
  ticket_check_ins: TicketCheckInTable;
  refunds: RefundTable;
  venue_questions: VenueQuestionTable;
  email_outbox: EmailOutboxTable;
  queue_rooms: QueueRoomTable;
  queue_entries: QueueEntryTable;
  queue_admissions: QueueAdmissionTable;
  queue_joins: QueueJoinTable;
  on_sale_rooms: OnSaleRoomTable;
  job_leases: JobLeaseTable;
  staff_users: StaffUserTable;
  staff_sessions: StaffSessionTable;
  staff_audit: StaffAuditTable;
}
