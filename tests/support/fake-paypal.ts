import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for PayPal's REST API (Orders v2, Payments v2, OAuth2 client credentials,
// webhook signature verification) and for the buyer's approval page, so the PayPal adapter is
// proved over real HTTP without PayPal. Only the endpoints the adapter uses, shaped as PayPal's API
// reference documents them: JSON bodies, Basic auth for the token and Bearer elsewhere (else 401),
// PayPal-Request-Id replaying the first response, 422 UNPROCESSABLE_ENTITY with details[].issue.
// It keeps its own money arithmetic (values as received, sums in minor units of its own) rather
// than the adapter's, so a conversion mistake there cannot hide here.

export interface FakePayPalOptions {
  clientId?: string;
  clientSecret?: string;
  /** The webhook id of the "app": only transmissions for it verify. */
  webhookId?: string;
  /** What the token endpoint says as expires_in; tokens are refused after it. */
  tokenLifetimeSeconds?: number;
}

interface Amount {
  currency_code: string;
  value: string;
}

interface Link {
  href: string;
  rel: string;
  method: string;
}

type OrderStatus = "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";

interface FakeOrder {
  id: string;
  intent: "CAPTURE" | "AUTHORIZE";
  status: OrderStatus;
  amount: Amount;
  customId?: string;
  invoiceId?: string;
  description?: string;
  returnUrl: string;
  cancelUrl: string;
  /** Set by the fake-only "Approve with a declined funding source" button. */
  fundingDeclined: boolean;
  payerId: string | null;
  createTime: string;
  updateTime: string;
}

interface FakeAuthorization {
  id: string;
  orderId: string;
  status: "CREATED" | "CAPTURED" | "PARTIALLY_CAPTURED" | "VOIDED";
  amount: Amount;
  customId?: string;
  invoiceId?: string;
  createTime: string;
}

interface FakeCapture {
  id: string;
  orderId: string;
  authorizationId: string;
  status: "COMPLETED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  amount: Amount;
  finalCapture: boolean;
  customId?: string;
  createTime: string;
}

interface FakeRefund {
  id: string;
  captureId: string;
  status: "COMPLETED";
  amount: Amount;
  createTime: string;
}

/** One call the fake answered (or held), for tests that check what the adapter sent. */
export interface FakePayPalRequest {
  method: string;
  path: string;
  requestId: string | null;
  body: unknown;
}

export interface FakeWebhook {
  eventId: string;
  transmissionId: string;
  body: string;
  headers: Record<string, string>;
}

export interface FakePayPal {
  /** Base URL of the API and of the approval page. */
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** Closes the server, held (hanging) requests included. */
  close(): Promise<void>;
  /** From now on API calls get no answer at all (the approval page still answers). */
  hang(): void;
  /** Every token issued so far is refused from now on (as if PayPal had revoked them). */
  revokeTokens(): void;
  /** The buyer presses Approve on the approval page: returns the Location PayPal sends them to. */
  approve(approvalUrl: string): Promise<string>;
  /** The buyer approves with a funding source that will be declined when the order is authorised. */
  approveWithDeclinedFunding(approvalUrl: string): Promise<string>;
  /** The buyer presses Cancel and return to merchant: returns the Location. */
  cancel(approvalUrl: string): Promise<string>;
  /** A signed event as PayPal would post it (recorded as sent, so its signature verifies). */
  webhook(eventType: string, resource: unknown): FakeWebhook;
  /** Posts `webhook(eventType, resource)` to the target URL. */
  sendWebhook(targetUrl: string, eventType: string, resource: unknown): Promise<FakeWebhook & { status: number }>;
  /** Orders as GET /v2/checkout/orders/{id} shows them. */
  orders(): Record<string, unknown>[];
  order(id: string): Record<string, unknown> | undefined;
  authorizations(): Record<string, unknown>[];
  captures(): Record<string, unknown>[];
  refunds(): Record<string, unknown>[];
  requests(): FakePayPalRequest[];
  readonly ordersCreated: number;
  readonly tokensIssued: number;
}

const PAYER_ID = "FAKEPAYER";
const AUTH_ALGO = "SHA256withRSA";

/** PayPal-style ids: 17 uppercase letters and digits. */
function paypalId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(randomBytes(17), (byte) => alphabet[byte % alphabet.length]).join("");
}

/** The fake's own reading of a PayPal amount: minor units, or null when PayPal would refuse it. */
function minorUnits(amount: unknown): { currency: string; minor: number } | "syntax" | "precision" {
  if (typeof amount !== "object" || amount === null) return "syntax";
  const { currency_code: currency, value } = amount as Record<string, unknown>;
  if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency) || typeof value !== "string") return "syntax";
  const match = /^(\d{1,10})(?:\.(\d+))?$/.exec(value);
  if (!match) return "syntax";
  const decimals = currency === "JPY" || currency === "HUF" || currency === "TWD" ? 0 : 2;
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) return "precision";
  return { currency, minor: Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || "0") };
}

function formatMinor(minor: number, currency: string): string {
  if (currency === "JPY" || currency === "HUF" || currency === "TWD") return String(minor);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

class HttpError {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

function unprocessable(issue: string, description: string): HttpError {
  return new HttpError(422, {
    name: "UNPROCESSABLE_ENTITY",
    message: "The requested action could not be performed, semantically incorrect, or failed business validation.",
    debug_id: randomBytes(6).toString("hex"),
    details: [{ issue, description }],
  });
}

function invalidRequest(issue: string, field: string, description: string): HttpError {
  return new HttpError(400, {
    name: "INVALID_REQUEST",
    message: "Request is not well-formed, syntactically incorrect, or violates schema.",
    debug_id: randomBytes(6).toString("hex"),
    details: [{ field, issue, description, location: "body" }],
  });
}

function notFound(): HttpError {
  return new HttpError(404, {
    name: "RESOURCE_NOT_FOUND",
    message: "The specified resource does not exist.",
    debug_id: randomBytes(6).toString("hex"),
    details: [{ issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist." }],
  });
}

function amountOrError(amount: unknown, field: string): { currency: string; minor: number } {
  const read = minorUnits(amount);
  if (read === "syntax")
    throw invalidRequest(
      "INVALID_PARAMETER_SYNTAX",
      field,
      "The value of a field does not conform to the expected format.",
    );
  if (read === "precision")
    throw unprocessable(
      "DECIMAL_PRECISION",
      "If the currency supports decimals, only two decimal place precision is supported.",
    );
  return read;
}

function absoluteHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function withQuery(url: string, params: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return parsed.toString();
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  const clientId = options.clientId ?? "fake-client-id";
  const clientSecret = options.clientSecret ?? "fake-client-secret";
  const webhookId = options.webhookId ?? "WH-FAKE-0001";
  const tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 32_400;
  // Signs the fake's own transmissions; never leaves the fake.
  const signingKey = randomBytes(32);

  const orders = new Map<string, FakeOrder>();
  const authorizations = new Map<string, FakeAuthorization>();
  const captures = new Map<string, FakeCapture>();
  const refunds = new Map<string, FakeRefund>();
  const tokens = new Map<string, number>();
  const replays = new Map<string, { status: number; body: unknown }>();
  const sent = new Map<string, { signature: string; time: string; body: string }>();
  const log: FakePayPalRequest[] = [];
  let ordersCreated = 0;
  let tokensIssued = 0;
  let hanging = false;
  let url = "";

  const now = () => new Date().toISOString();
  const certUrl = () => `${url}/v1/notifications/certs/CERT-FAKE-0001`;

  function orderLinks(order: FakeOrder): Link[] {
    const self = `${url}/v2/checkout/orders/${order.id}`;
    const links: Link[] = [{ href: self, rel: "self", method: "GET" }];
    if (order.status === "PAYER_ACTION_REQUIRED")
      links.push({ href: `${url}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" });
    if (order.status === "CREATED")
      links.push({ href: `${url}/checkoutnow?token=${order.id}`, rel: "approve", method: "GET" });
    if (order.status === "APPROVED") links.push({ href: `${self}/authorize`, rel: "authorize", method: "POST" });
    return links;
  }

  function authorizationView(auth: FakeAuthorization) {
    const self = `${url}/v2/payments/authorizations/${auth.id}`;
    return {
      id: auth.id,
      status: auth.status,
      amount: auth.amount,
      ...(auth.customId !== undefined ? { custom_id: auth.customId } : {}),
      ...(auth.invoiceId !== undefined ? { invoice_id: auth.invoiceId } : {}),
      seller_protection: { status: "ELIGIBLE" },
      expiration_time: new Date(Date.parse(auth.createTime) + 29 * 86_400_000).toISOString(),
      create_time: auth.createTime,
      update_time: auth.createTime,
      supplementary_data: { related_ids: { order_id: auth.orderId } },
      links: [
        { href: self, rel: "self", method: "GET" },
        { href: `${self}/capture`, rel: "capture", method: "POST" },
        { href: `${self}/void`, rel: "void", method: "POST" },
        { href: `${url}/v2/checkout/orders/${auth.orderId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function captureView(capture: FakeCapture) {
    const self = `${url}/v2/payments/captures/${capture.id}`;
    return {
      id: capture.id,
      status: capture.status,
      amount: capture.amount,
      final_capture: capture.finalCapture,
      ...(capture.customId !== undefined ? { custom_id: capture.customId } : {}),
      seller_protection: { status: "ELIGIBLE" },
      create_time: capture.createTime,
      update_time: capture.createTime,
      supplementary_data: { related_ids: { order_id: capture.orderId, authorization_id: capture.authorizationId } },
      links: [
        { href: self, rel: "self", method: "GET" },
        { href: `${self}/refund`, rel: "refund", method: "POST" },
        { href: `${url}/v2/payments/authorizations/${capture.authorizationId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function refundView(refund: FakeRefund) {
    return {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      create_time: refund.createTime,
      update_time: refund.createTime,
      links: [
        { href: `${url}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
        { href: `${url}/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function orderView(order: FakeOrder) {
    const auths = [...authorizations.values()].filter((auth) => auth.orderId === order.id);
    const caps = [...captures.values()].filter((capture) => capture.orderId === order.id);
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      payment_source: {
        paypal: order.payerId
          ? { email_address: "buyer@example.com", account_id: order.payerId, account_status: "VERIFIED" }
          : {},
      },
      purchase_units: [
        {
          reference_id: "default",
          amount: order.amount,
          ...(order.customId !== undefined ? { custom_id: order.customId } : {}),
          ...(order.invoiceId !== undefined ? { invoice_id: order.invoiceId } : {}),
          ...(order.description !== undefined ? { description: order.description } : {}),
          ...(auths.length || caps.length
            ? {
                payments: {
                  ...(auths.length ? { authorizations: auths.map(authorizationView) } : {}),
                  ...(caps.length ? { captures: caps.map(captureView) } : {}),
                },
              }
            : {}),
        },
      ],
      ...(order.payerId
        ? {
            payer: {
              name: { given_name: "Fake", surname: "Buyer" },
              email_address: "buyer@example.com",
              payer_id: order.payerId,
            },
          }
        : {}),
      create_time: order.createTime,
      update_time: order.updateTime,
      links: orderLinks(order),
    };
  }

  function createOrder(body: Record<string, unknown>) {
    const intent = body.intent;
    if (intent !== "CAPTURE" && intent !== "AUTHORIZE")
      throw invalidRequest("INVALID_PARAMETER_VALUE", "/intent", "The value of a field is invalid.");
    const units = body.purchase_units;
    if (!Array.isArray(units) || units.length !== 1 || typeof units[0] !== "object" || units[0] === null)
      throw invalidRequest("MISSING_REQUIRED_PARAMETER", "/purchase_units", "A required field is missing.");
    const unit = units[0] as Record<string, unknown>;
    const amount = amountOrError(unit.amount, "/purchase_units/@reference_id=='default'/amount/value");
    if (amount.minor <= 0) throw unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.");
    for (const field of ["custom_id", "invoice_id", "description"] as const) {
      const value = unit[field];
      if (value !== undefined && (typeof value !== "string" || value.length > 127))
        throw invalidRequest("INVALID_STRING_MAX_LENGTH", `/purchase_units/0/${field}`, "Too long or not a string.");
    }
    const paypal = (body.payment_source as { paypal?: { experience_context?: Record<string, unknown> } } | undefined)
      ?.paypal;
    const context = paypal?.experience_context ?? {};
    // This fake only knows the redirect flow, where PayPal needs both URLs to send the buyer back.
    if (!absoluteHttpUrl(context.return_url) || !absoluteHttpUrl(context.cancel_url))
      throw invalidRequest(
        "MISSING_REQUIRED_PARAMETER",
        "/payment_source/paypal/experience_context/return_url",
        "return_url and cancel_url must be absolute http(s) URLs.",
      );
    const time = now();
    const order: FakeOrder = {
      id: paypalId(),
      intent,
      status: paypal ? "PAYER_ACTION_REQUIRED" : "CREATED",
      amount: unit.amount as Amount,
      customId: unit.custom_id as string | undefined,
      invoiceId: unit.invoice_id as string | undefined,
      description: unit.description as string | undefined,
      returnUrl: context.return_url,
      cancelUrl: context.cancel_url,
      fundingDeclined: false,
      payerId: null,
      createTime: time,
      updateTime: time,
    };
    orders.set(order.id, order);
    ordersCreated += 1;
    return { status: 201, body: orderView(order) };
  }

  function authorizeOrder(id: string) {
    const order = orders.get(id);
    if (!order) throw notFound();
    if (order.intent !== "AUTHORIZE")
      throw unprocessable("ACTION_DOES_NOT_MATCH_INTENT", "Order was created with an intent to 'CAPTURE'.");
    if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED")
      throw unprocessable("ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.");
    if (order.status === "COMPLETED") throw unprocessable("ORDER_ALREADY_AUTHORIZED", "Order already authorized.");
    if (order.status === "VOIDED") throw unprocessable("ORDER_CANNOT_BE_AUTHORIZED", "The order has been voided.");
    if (order.fundingDeclined)
      throw unprocessable(
        "INSTRUMENT_DECLINED",
        "The instrument presented was either declined by the processor or bank.",
      );
    const auth: FakeAuthorization = {
      id: paypalId(),
      orderId: order.id,
      status: "CREATED",
      amount: order.amount,
      customId: order.customId,
      invoiceId: order.invoiceId,
      createTime: now(),
    };
    authorizations.set(auth.id, auth);
    order.status = "COMPLETED";
    order.updateTime = auth.createTime;
    return { status: 201, body: orderView(order) };
  }

  function captureAuthorization(id: string, body: Record<string, unknown>) {
    const auth = authorizations.get(id);
    if (!auth) throw notFound();
    if (auth.status === "CAPTURED")
      throw unprocessable(
        "AUTHORIZATION_ALREADY_CAPTURED",
        "Authorization has been previously captured and hence cannot be captured again.",
      );
    if (auth.status === "VOIDED")
      throw unprocessable("AUTHORIZATION_VOIDED", "A voided authorization cannot be captured or reauthorized.");
    const authorised = amountOrError(auth.amount, "/amount");
    const alreadyCaptured = [...captures.values()]
      .filter((capture) => capture.authorizationId === id)
      .reduce((sum, capture) => sum + (minorUnits(capture.amount) as { minor: number }).minor, 0);
    const requested =
      body.amount === undefined
        ? { currency: authorised.currency, minor: authorised.minor - alreadyCaptured }
        : amountOrError(body.amount, "/amount/value");
    if (requested.currency !== authorised.currency)
      throw unprocessable("CURRENCY_MISMATCH", "Currency of capture must be the same as currency of authorization.");
    if (requested.minor <= 0) throw unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.");
    if (alreadyCaptured + requested.minor > authorised.minor)
      throw unprocessable("MAX_CAPTURE_AMOUNT_EXCEEDED", "Capture amount exceeds allowable limit.");
    const finalCapture = body.final_capture === true;
    const capture: FakeCapture = {
      id: paypalId(),
      orderId: auth.orderId,
      authorizationId: id,
      status: "COMPLETED",
      amount:
        body.amount === undefined
          ? { currency_code: requested.currency, value: formatMinor(requested.minor, requested.currency) }
          : (body.amount as Amount),
      finalCapture,
      customId: auth.customId,
      createTime: now(),
    };
    captures.set(capture.id, capture);
    auth.status =
      finalCapture || alreadyCaptured + requested.minor === authorised.minor ? "CAPTURED" : "PARTIALLY_CAPTURED";
    return { status: 201, body: captureView(capture) };
  }

  function voidAuthorization(id: string, prefer: string | undefined) {
    const auth = authorizations.get(id);
    if (!auth) throw notFound();
    if (auth.status === "VOIDED")
      throw unprocessable(
        "PREVIOUSLY_VOIDED",
        "Authorization has been previously voided and hence cannot be voided again.",
      );
    if (auth.status !== "CREATED")
      throw unprocessable(
        "PREVIOUSLY_CAPTURED",
        "Authorization has been previously captured and hence cannot be voided.",
      );
    auth.status = "VOIDED";
    const order = orders.get(auth.orderId);
    if (order) {
      order.status = "VOIDED";
      order.updateTime = now();
    }
    // PayPal answers 204 unless asked for the representation.
    return prefer?.includes("return=representation")
      ? { status: 200, body: authorizationView(auth) }
      : { status: 204, body: null };
  }

  function refundCapture(id: string, body: Record<string, unknown>) {
    const capture = captures.get(id);
    if (!capture) throw notFound();
    const captured = amountOrError(capture.amount, "/amount");
    const refunded = [...refunds.values()]
      .filter((refund) => refund.captureId === id)
      .reduce((sum, refund) => sum + (minorUnits(refund.amount) as { minor: number }).minor, 0);
    if (refunded >= captured.minor)
      throw unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    const requested =
      body.amount === undefined
        ? { currency: captured.currency, minor: captured.minor - refunded }
        : amountOrError(body.amount, "/amount/value");
    if (requested.currency !== captured.currency)
      throw unprocessable("REFUND_CURRENCY_MISMATCH", "Refund must be in the same currency as the capture.");
    if (requested.minor <= 0) throw unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.");
    if (refunded + requested.minor > captured.minor)
      throw unprocessable(
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
      );
    const refund: FakeRefund = {
      id: paypalId(),
      captureId: id,
      status: "COMPLETED",
      amount:
        body.amount === undefined
          ? { currency_code: requested.currency, value: formatMinor(requested.minor, requested.currency) }
          : (body.amount as Amount),
      createTime: now(),
    };
    refunds.set(refund.id, refund);
    capture.status = refunded + requested.minor === captured.minor ? "REFUNDED" : "PARTIALLY_REFUNDED";
    return { status: 201, body: refundView(refund) };
  }

  function signature(transmissionId: string, time: string, hookId: string, body: string): string {
    const digest = createHash("sha256").update(body).digest("hex");
    return createHmac("sha256", signingKey).update(`${transmissionId}|${time}|${hookId}|${digest}`).digest("base64");
  }

  function verifyWebhook(body: Record<string, unknown>) {
    const fields = [
      "auth_algo",
      "cert_url",
      "transmission_id",
      "transmission_sig",
      "transmission_time",
      "webhook_id",
    ] as const;
    for (const field of fields)
      if (typeof body[field] !== "string" || !body[field])
        throw invalidRequest("MISSING_REQUIRED_PARAMETER", `/${field}`, "A required field is missing.");
    if (typeof body.webhook_event !== "object" || body.webhook_event === null)
      throw invalidRequest("MISSING_REQUIRED_PARAMETER", "/webhook_event", "A required field is missing.");
    const given = body as Record<(typeof fields)[number], string>;
    const record = sent.get(given.transmission_id);
    const event = JSON.stringify(body.webhook_event);
    // Only what the fake itself sent, unaltered, for the app's own webhook id.
    const genuine =
      record !== undefined &&
      given.auth_algo === AUTH_ALGO &&
      given.cert_url === certUrl() &&
      given.webhook_id === webhookId &&
      given.transmission_time === record.time &&
      given.transmission_sig === record.signature &&
      event === record.body &&
      signature(given.transmission_id, given.transmission_time, given.webhook_id, event) === given.transmission_sig;
    return { status: 200, body: { verification_status: genuine ? "SUCCESS" : "FAILURE" } };
  }

  function issueToken(authorization: string | undefined, body: string) {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (authorization !== expected)
      throw new HttpError(401, { error: "invalid_client", error_description: "Client Authentication failed" });
    if (new URLSearchParams(body).get("grant_type") !== "client_credentials")
      throw new HttpError(400, { error: "unsupported_grant_type", error_description: "Grant Type is NULL" });
    const accessToken = `A21AA${randomBytes(24).toString("base64url")}`;
    tokens.set(accessToken, Date.now() + tokenLifetimeSeconds * 1000);
    tokensIssued += 1;
    return {
      status: 200,
      body: {
        scope: "https://uri.paypal.com/services/payments/payment/authcapture",
        access_token: accessToken,
        token_type: "Bearer",
        app_id: "APP-FAKE",
        expires_in: tokenLifetimeSeconds,
        nonce: `${now()}${randomBytes(8).toString("hex")}`,
      },
    };
  }

  function bearerOk(authorization: string | undefined): boolean {
    const match = /^Bearer (.+)$/.exec(authorization ?? "");
    const expires = match?.[1] ? tokens.get(match[1]) : undefined;
    return expires !== undefined && Date.now() < expires;
  }

  /** Routes one API call; throws HttpError for PayPal's error answers. */
  function api(method: string, path: string, headers: IncomingMessage["headers"], raw: string) {
    if (method === "POST" && path === "/v1/oauth2/token") return issueToken(headers.authorization, raw);
    if (!bearerOk(headers.authorization))
      throw new HttpError(401, { error: "invalid_token", error_description: "Token signature verification failed" });
    let body: Record<string, unknown> = {};
    if (method === "POST" && raw) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        body = parsed as Record<string, unknown>;
      } catch {
        throw invalidRequest("MALFORMED_REQUEST_JSON", "", "The request JSON is not well formed.");
      }
    }
    const prefer = typeof headers.prefer === "string" ? headers.prefer : undefined;
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v2/checkout/orders") return createOrder(body);
    if (method === "GET" && (match = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path))) {
      const order = orders.get(decodeURIComponent(match[1]!));
      if (!order) throw notFound();
      return { status: 200, body: orderView(order) };
    }
    if (method === "POST" && (match = /^\/v2\/checkout\/orders\/([^/]+)\/authorize$/.exec(path)))
      return authorizeOrder(decodeURIComponent(match[1]!));
    if (method === "POST" && (match = /^\/v2\/payments\/authorizations\/([^/]+)\/capture$/.exec(path)))
      return captureAuthorization(decodeURIComponent(match[1]!), body);
    if (method === "POST" && (match = /^\/v2\/payments\/authorizations\/([^/]+)\/void$/.exec(path)))
      return voidAuthorization(decodeURIComponent(match[1]!), prefer);
    if (method === "POST" && (match = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path)))
      return refundCapture(decodeURIComponent(match[1]!), body);
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") return verifyWebhook(body);
    throw notFound();
  }

  function approvalPage(order: FakeOrder): string {
    const form = (action: string, label: string) =>
      `<form method="post" action="/checkoutnow/${action}"><input type="hidden" name="token" value="${escapeHtml(order.id)}"><button type="submit">${escapeHtml(label)}</button></form>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake PayPal</title></head><body>
<h1>Pay with (fake) PayPal</h1>
<p>${escapeHtml(order.description ?? "")}: ${escapeHtml(order.amount.value)} ${escapeHtml(order.amount.currency_code)}</p>
${form("approve", "Approve")}
${form("approve-declined", "Approve with a declined funding source")}
${form("cancel", "Cancel and return to merchant")}
</body></html>`;
  }

  /** The buyer's page: GET shows the order, POST (no cookies: the token is in the form) decides. */
  function checkout(method: string, path: string, query: URLSearchParams, raw: string) {
    if (method === "GET" && path === "/checkoutnow") {
      const order = orders.get(query.get("token") ?? "");
      if (!order) return { status: 404, html: "<!doctype html><title>Not found</title><p>No such order." };
      return { status: 200, html: approvalPage(order) };
    }
    const decision = /^\/checkoutnow\/(approve|approve-declined|cancel)$/.exec(path)?.[1];
    const order = orders.get(new URLSearchParams(raw).get("token") ?? "");
    if (method !== "POST" || !decision || !order)
      return { status: 404, html: "<!doctype html><title>Not found</title>" };
    if (decision === "cancel") return { status: 302, location: withQuery(order.cancelUrl, { token: order.id }) };
    if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED") {
      order.status = "APPROVED";
      order.payerId = PAYER_ID;
      order.fundingDeclined = decision === "approve-declined";
      order.updateTime = now();
    }
    return { status: 302, location: withQuery(order.returnUrl, { token: order.id, PayerID: PAYER_ID }) };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const parsed = new URL(request.url ?? "/", "http://fake.invalid");
    const method = request.method ?? "GET";
    const raw = await readBody(request);
    if (parsed.pathname.startsWith("/checkoutnow")) {
      const page = checkout(method, parsed.pathname, parsed.searchParams, raw);
      if ("location" in page) response.writeHead(302, { Location: page.location }).end();
      else response.writeHead(page.status, { "Content-Type": "text/html; charset=utf-8" }).end(page.html);
      return;
    }
    const requestIdHeader = request.headers["paypal-request-id"];
    const requestId = typeof requestIdHeader === "string" ? requestIdHeader : null;
    let logged: unknown = raw;
    try {
      logged = raw ? JSON.parse(raw) : null;
    } catch {
      // Logged as the text it was.
    }
    log.push({ method, path: parsed.pathname, requestId, body: logged });
    // Held with no answer; close() ends the connection.
    if (hanging) return;
    const replayKey = method === "POST" && requestId ? `${parsed.pathname}|${requestId}` : null;
    let answer: { status: number; body: unknown };
    const replay = replayKey ? replays.get(replayKey) : undefined;
    if (replay) {
      answer = replay;
    } else {
      try {
        answer = api(method, parsed.pathname, request.headers, raw);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        answer = { status: error.status, body: error.body };
      }
      // An unauthenticated call never reached the API, so it is not remembered for a replay.
      if (replayKey && answer.status !== 401) replays.set(replayKey, answer);
    }
    const headers: Record<string, string> = { "Paypal-Debug-Id": randomBytes(6).toString("hex") };
    if (answer.body === null) {
      response.writeHead(answer.status, headers).end();
    } else {
      headers["Content-Type"] = "application/json";
      response.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response
        .writeHead(500, { "Content-Type": "application/json" })
        .end(JSON.stringify({ name: "INTERNAL_SERVER_ERROR", message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** What a browser without script does on the approval page: GET it, then POST the chosen form. */
  async function decide(approvalUrl: string, label: string): Promise<string> {
    const page = await fetch(approvalUrl);
    const html = await page.text();
    if (page.status !== 200) throw new Error(`approval page answered ${page.status}`);
    const forms = [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)];
    const form = forms.find((candidate) => candidate[2]!.includes(`>${label}</button>`));
    if (!form) throw new Error(`no "${label}" button on the approval page`);
    const fields = new URLSearchParams(
      [...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((input) => [
        input[1]!,
        input[2]!,
      ]),
    );
    const answer = await fetch(new URL(form[1]!, approvalUrl), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
      redirect: "manual",
    });
    const location = answer.headers.get("location");
    if (answer.status !== 302 || !location) throw new Error(`"${label}" answered ${answer.status}`);
    return location;
  }

  function webhook(eventType: string, resource: unknown): FakeWebhook {
    const eventId = `WH-${paypalId()}`;
    const body = JSON.stringify({
      id: eventId,
      event_version: "1.0",
      create_time: now(),
      resource_type: eventType.startsWith("CHECKOUT.ORDER") ? "checkout-order" : "authorization",
      resource_version: "2.0",
      event_type: eventType,
      summary: `Fake ${eventType}`,
      resource,
      links: [{ href: `${url}/v1/notifications/webhooks-events/${eventId}`, rel: "self", method: "GET" }],
    });
    const transmissionId = randomUUID();
    const time = now();
    const sig = signature(transmissionId, time, webhookId, body);
    sent.set(transmissionId, { signature: sig, time, body });
    return {
      eventId,
      transmissionId,
      body,
      headers: {
        "content-type": "application/json",
        "paypal-auth-algo": AUTH_ALGO,
        "paypal-cert-url": certUrl(),
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-sig": sig,
        "paypal-transmission-time": time,
      },
    };
  }

  return {
    url,
    clientId,
    clientSecret,
    webhookId,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    hang() {
      hanging = true;
    },
    revokeTokens() {
      tokens.clear();
    },
    approve: (approvalUrl) => decide(approvalUrl, "Approve"),
    approveWithDeclinedFunding: (approvalUrl) => decide(approvalUrl, "Approve with a declined funding source"),
    cancel: (approvalUrl) => decide(approvalUrl, "Cancel and return to merchant"),
    webhook,
    async sendWebhook(targetUrl, eventType, resource) {
      const event = webhook(eventType, resource);
      const answer = await fetch(targetUrl, { method: "POST", headers: event.headers, body: event.body });
      await answer.arrayBuffer();
      return { ...event, status: answer.status };
    },
    orders: () => [...orders.values()].map(orderView),
    order(id) {
      const order = orders.get(id);
      return order && orderView(order);
    },
    authorizations: () => [...authorizations.values()].map(authorizationView),
    captures: () => [...captures.values()].map(captureView),
    refunds: () => [...refunds.values()].map(refundView),
    requests: () => log.map((entry) => ({ ...entry })),
    get ordersCreated() {
      return ordersCreated;
    },
    get tokensIssued() {
      return tokensIssued;
    },
  };
}
