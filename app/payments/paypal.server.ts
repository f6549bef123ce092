import type { GatewayResult, PaymentGateway, PaymentRequest } from "./gateway";

// PayPal (Orders v2 and Payments v2 REST APIs) behind the gateway seam, fitted to our
// authorise-then-capture model: the order is created with intent AUTHORIZE, the buyer approves it
// on PayPal's page, we authorise it when they come back (or when the reconciler or a webhook finds
// it approved), capture once the seats are sold and void it when too late.
//
// Plain `fetch`, not @paypal/paypal-server-sdk: the SDK (2.5.0) knows two environments only
// (Production, Sandbox), its base URL is hard-coded for each and there is no documented option
// to point it anywhere else, so it could never be proved against a local fake; nor does it cover
// webhook signature verification, which we need. The handful of calls below are all we use.

export interface PayPalGatewayOptions {
  clientId: string;
  clientSecret: string;
  environment: "sandbox" | "live";
  /** Overrides the environment's base URL: a local fake in tests. */
  apiUrl?: string;
  /** The webhook's id in the PayPal app; without it no notification is accepted. */
  webhookId?: string;
  /** The deployment's PUBLIC_URL: PayPal sends the buyer back to absolute URLs on it. */
  publicUrl: string;
  /** Per call to PayPal; past it the call fails and the reconciler asks again later. */
  timeoutMs?: number;
}

export interface PayPalGateway extends PaymentGateway {
  readonly name: "paypal";
}

const BASE_URLS = { sandbox: "https://api-m.sandbox.paypal.com", live: "https://api-m.paypal.com" } as const;
const DEFAULT_TIMEOUT_MS = 15_000;
/** A token is renewed this long before PayPal says it expires, so none expires in flight. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * Decimal places PayPal expects per currency, for the currencies whose minor unit is the same on
 * our side and PayPal's. HUF and TWD are left out on purpose: ISO gives them two decimals but
 * PayPal takes whole units only, so an amount in their minor units could not be sent exactly.
 */
const DECIMALS: Readonly<Record<string, number>> = {
  AUD: 2,
  BRL: 2,
  CAD: 2,
  CHF: 2,
  CNY: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  GBP: 2,
  HKD: 2,
  ILS: 2,
  JPY: 0,
  MXN: 2,
  MYR: 2,
  NOK: 2,
  NZD: 2,
  PHP: 2,
  PLN: 2,
  SEK: 2,
  SGD: 2,
  THB: 2,
  USD: 2,
};

const decimalsOf = (currency: string): number | null => DECIMALS[currency] ?? null;

/**
 * Integer minor units as PayPal's decimal string (10250 GBP → "102.50"), by string arithmetic so
 * no float ever touches money. Null for an amount or currency that cannot be sent exactly.
 */
export function toPayPalValue(amount: number, currency: string): string | null {
  const decimals = decimalsOf(currency);
  if (decimals === null || !Number.isSafeInteger(amount) || amount < 0) return null;
  if (decimals === 0) return String(amount);
  const digits = String(amount).padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** PayPal's decimal string back to integer minor units ("102.50" GBP → 10250); null if not exact. */
export function fromPayPalValue(value: string, currency: string): number | null {
  const decimals = decimalsOf(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (decimals === null || !match) return null;
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  const minor = Number(`${whole}${fraction.padEnd(decimals, "0")}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** A PayPal answer we did not expect: the caller logs it and the reconciler asks again later. */
export class PayPalApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: PayPalErrorBody | null,
    what: string,
  ) {
    super(
      `PayPal ${what} answered ${status}${body?.name ? ` ${body.name}` : ""}${issuesOf(body).length ? ` (${issuesOf(body).join(", ")})` : ""}`,
    );
    this.name = "PayPalApiError";
  }
}

interface PayPalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string }[];
}

function issuesOf(body: PayPalErrorBody | null): string[] {
  return (body?.details ?? []).map((detail) => detail.issue).filter((issue): issue is string => !!issue);
}

interface Money {
  currency_code: string;
  value: string;
}

interface Link {
  href: string;
  rel: string;
  method?: string;
}

interface Authorization {
  id: string;
  status: string;
  amount?: Money;
  custom_id?: string;
  supplementary_data?: { related_ids?: { order_id?: string } };
  links?: Link[];
}

interface Capture {
  id: string;
  status: string;
  amount?: Money;
}

interface Order {
  id: string;
  status: string;
  purchase_units?: {
    amount?: Money;
    custom_id?: string;
    payments?: { authorizations?: Authorization[]; captures?: Capture[] };
  }[];
  links?: Link[];
}

interface Answer<T> {
  status: number;
  body: T | null;
}

const declined = (reference: string | null, failure: "declined" | "cancelled" | "error"): GatewayResult => ({
  status: "declined",
  reference,
  failure,
  brand: null,
  last4: null,
});

/** What PayPal authorised, in our minor units; null amount and currency where PayPal's money cannot be read exactly. */
const authorised = (reference: string, money: Money | undefined): GatewayResult => {
  const amount = money ? fromPayPalValue(money.value, money.currency_code) : null;
  return {
    status: "authorised",
    reference,
    brand: null,
    last4: null,
    // An amount PayPal names that cannot be read exactly can never be what was asked: -1 says
    // so, and the payment service refuses it (an amount not given at all goes unchecked).
    amount: money ? (amount ?? -1) : null,
    currency: money ? money.currency_code : null,
  };
};

const ok = (status: number) => status >= 200 && status < 300;

/** PayPal's ids are short uppercase alphanumerics; anything else never goes into a URL path. */
const PAYPAL_ID = /^[A-Za-z0-9-]{1,64}$/;

function authorizationOf(order: Order): Authorization | undefined {
  return order.purchase_units?.[0]?.payments?.authorizations?.at(-1);
}

function captureOf(order: Order): Capture | undefined {
  return order.purchase_units?.[0]?.payments?.captures?.at(-1);
}

/** A path on our site, made absolute with the deployment's public URL (which may have a path). */
function absolute(publicUrl: string, path: string): string | null {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return null;
  return `${publicUrl.replace(/\/+$/, "")}${path}`;
}

/** The order id an authorization event is about: its related ids, else its `up` link. */
function orderIdOfAuthorization(authorization: Authorization): string | null {
  const related = authorization.supplementary_data?.related_ids?.order_id;
  if (related) return related;
  const up = authorization.links?.find((link) => link.rel === "up")?.href;
  const match = up ? /\/v2\/checkout\/orders\/([^/?#]+)/.exec(up) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

const WEBHOOK_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

export function createPayPalGateway(options: PayPalGatewayOptions): PayPalGateway {
  const { clientId, clientSecret, webhookId, publicUrl } = options;
  const baseUrl = (options.apiUrl ?? BASE_URLS[options.environment]).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let token: { value: string; renewAt: number } | null = null;
  let tokenRequest: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const response = await fetch(`${baseUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: "grant_type=client_credentials",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null;
    if (!response.ok || !body?.access_token) throw new PayPalApiError(response.status, null, "token");
    const lifetimeMs = (body.expires_in ?? 0) * 1000;
    token = { value: body.access_token, renewAt: Date.now() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2) };
    return body.access_token;
  }

  /** The cached token while it lasts; one request for a new one however many calls need it. */
  function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    tokenRequest ??= fetchToken().finally(() => (tokenRequest = null));
    return tokenRequest;
  }

  async function call<T>(
    method: "GET" | "POST",
    path: string,
    { body, requestId }: { body?: string; requestId?: string } = {},
    retried = false,
  ): Promise<Answer<T>> {
    const bearer = await accessToken();
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        Accept: "application/json",
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(requestId ? { "PayPal-Request-Id": requestId } : {}),
        // The whole resource, not just id and status: we read its payments from it.
        Prefer: "return=representation",
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    // A token PayPal revoked before its time: one fresh token, one retry.
    if (response.status === 401 && !retried) {
      token = null;
      return call(method, path, { body, requestId }, true);
    }
    let parsed: T | null = null;
    try {
      parsed = text ? (JSON.parse(text) as T) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  }

  function fail(answer: Answer<unknown>, what: string): never {
    throw new PayPalApiError(answer.status, answer.body as PayPalErrorBody | null, what);
  }

  /** The order, or null when PayPal has no such order (an id that was never PayPal's, or gone). */
  async function getOrder(reference: string): Promise<Order | null> {
    if (!PAYPAL_ID.test(reference)) return null;
    const answer = await call<Order>("GET", `/v2/checkout/orders/${encodeURIComponent(reference)}`);
    if (answer.status === 404) return null;
    if (!ok(answer.status) || !answer.body) fail(answer, "get order");
    return answer.body;
  }

  /** What an order that has been authorised (or tried to be) means for us. */
  function resultOfAuthorized(reference: string, order: Order): GatewayResult {
    const authorization = authorizationOf(order);
    switch (authorization?.status) {
      case "CREATED":
      case "CAPTURED":
      case "PARTIALLY_CAPTURED":
        return authorised(reference, authorization.amount ?? order.purchase_units?.[0]?.amount);
      case "PENDING":
        // PayPal is reviewing it; the webhook or the reconciler hears the outcome.
        return { status: "pending", reference };
      case "VOIDED":
        return declined(reference, "cancelled");
      case "DENIED":
      case "EXPIRED":
        return declined(reference, "declined");
      default:
        return declined(reference, "error");
    }
  }

  /**
   * Authorises an order the buyer approved. The same PayPal-Request-Id from `continue`, `status`
   * and the webhook, so whichever comes first authorises it and the others read the same answer.
   */
  async function authorize(reference: string): Promise<GatewayResult> {
    const answer = await call<Order & PayPalErrorBody>(
      "POST",
      `/v2/checkout/orders/${encodeURIComponent(reference)}/authorize`,
      { body: "{}", requestId: `${reference}:authorize` },
    );
    if (ok(answer.status) && answer.body) return resultOfAuthorized(reference, answer.body);
    if (answer.status === 422) {
      const issues = issuesOf(answer.body);
      // Authorised a moment ago by another request of ours (another process, another id).
      if (issues.includes("ORDER_ALREADY_AUTHORIZED")) {
        const order = await getOrder(reference);
        if (order) return resultOfAuthorized(reference, order);
      }
      // INSTRUMENT_DECLINED and the rest: PayPal will not authorise this order as it stands.
      return declined(reference, "declined");
    }
    fail(answer, "authorize order");
  }

  /** Where an order stands; `waiting` is what an order the buyer has not approved means. */
  async function settle(reference: string, waiting: GatewayResult): Promise<GatewayResult> {
    const order = await getOrder(reference);
    if (!order) return declined(reference, "error");
    switch (order.status) {
      case "APPROVED":
        return authorize(reference);
      case "COMPLETED":
        return resultOfAuthorized(reference, order);
      case "CREATED":
      case "PAYER_ACTION_REQUIRED":
        return waiting;
      case "VOIDED":
        return declined(reference, "cancelled");
      default:
        return declined(reference, "error");
    }
  }

  const refuse = async (): Promise<GatewayResult> => declined(null, "error");

  const gateway: PayPalGateway = {
    name: "paypal",
    cardBrands: [],
    // PayPal here takes PayPal only; cards come from the card provider it is combined with.
    offers: { cardEntry: "onSite", paypal: true, wallets: false },

    // PayPal here takes PayPal only: card and wallet payments belong to the card provider this
    // gateway is combined with, so one sent here is refused like a malformed request.
    authorise: refuse,
    startHostedCard: refuse,
    authoriseWallet: refuse,

    async startPayPal(request: PaymentRequest & { cancelUrl: string }) {
      const value =
        Number.isInteger(request.amount) && request.amount > 0 ? toPayPalValue(request.amount, request.currency) : null;
      const returnUrl = absolute(publicUrl, request.returnUrl);
      const cancelUrl = absolute(publicUrl, request.cancelUrl);
      if (!value || !returnUrl || !cancelUrl) return declined(null, "error");
      const body = {
        intent: "AUTHORIZE",
        purchase_units: [
          {
            amount: { currency_code: request.currency, value },
            // Ties PayPal's order to our attempt, and back again in webhooks.
            custom_id: request.idempotencyKey,
            ...(request.orderNumber ? { invoice_id: request.orderNumber } : {}),
            description: request.description.slice(0, 127),
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              return_url: returnUrl,
              cancel_url: cancelUrl,
              user_action: "PAY_NOW",
              shipping_preference: "NO_SHIPPING",
            },
          },
        },
      };
      // PayPal-Request-Id makes a repeat (double Pay, a retry after a lost answer) the same order.
      const answer = await call<Order>("POST", "/v2/checkout/orders", {
        body: JSON.stringify(body),
        requestId: request.idempotencyKey,
      });
      if (answer.status === 400 || answer.status === 422) return declined(null, "error");
      if (!ok(answer.status) || !answer.body?.id) fail(answer, "create order");
      const order = answer.body;
      const link = order.links?.find((candidate) => candidate.rel === "payer-action" || candidate.rel === "approve");
      if (!link) fail(answer, "create order (no approval link)");
      return {
        status: "actionRequired",
        reference: order.id,
        action: { kind: "approval", url: link.href, method: "GET", fields: {} },
        brand: null,
        last4: null,
      };
    },

    returnedReference(query) {
      const token = query.get("token");
      return token && PAYPAL_ID.test(token) ? token : null;
    },

    continue(reference, _returned) {
      // The query PayPal added (token, PayerID) only names the order: its state is asked of PayPal.
      // Back without approving is the cancel URL: the buyer chose not to pay with PayPal.
      return settle(reference, declined(reference, "cancelled"));
    },

    async capture(reference, amount) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      const order = await getOrder(reference);
      const authorization = order && authorizationOf(order);
      // Captured already (by us, a moment ago) or voided: this capture takes nothing.
      if (!authorization || authorization.status !== "CREATED" || !PAYPAL_ID.test(authorization.id))
        return { ok: false };
      const currency = authorization.amount?.currency_code ?? order.purchase_units?.[0]?.amount?.currency_code ?? "";
      const value = toPayPalValue(amount, currency);
      if (!value) return { ok: false };
      const answer = await call<Capture>(
        "POST",
        `/v2/payments/authorizations/${encodeURIComponent(authorization.id)}/capture`,
        {
          body: JSON.stringify({ amount: { currency_code: currency, value }, final_capture: true }),
          // Two servers capturing at the same instant make one capture.
          requestId: `${authorization.id}:capture`,
        },
      );
      if (ok(answer.status)) return { ok: answer.body?.status === "COMPLETED" || answer.body?.status === "PENDING" };
      if (answer.status === 422) return { ok: false };
      fail(answer, "capture authorization");
    },

    async void(reference) {
      const order = await getOrder(reference);
      if (!order) return { ok: false };
      // Never approved, or approved and never authorised: nothing is held to give back, and the
      // order expires on its own.
      if (["CREATED", "PAYER_ACTION_REQUIRED", "APPROVED", "VOIDED"].includes(order.status)) return { ok: true };
      const authorization = authorizationOf(order);
      if (!authorization) return { ok: false };
      if (authorization.status === "VOIDED") return { ok: true };
      if (authorization.status !== "CREATED" || !PAYPAL_ID.test(authorization.id)) return { ok: false };
      const answer = await call<Authorization>(
        "POST",
        `/v2/payments/authorizations/${encodeURIComponent(authorization.id)}/void`,
        { requestId: `${authorization.id}:void` },
      );
      if (ok(answer.status)) return { ok: true };
      if (answer.status === 422)
        return { ok: issuesOf(answer.body as PayPalErrorBody | null).includes("PREVIOUSLY_VOIDED") };
      fail(answer, "void authorization");
    },

    async refund(reference, amount, idempotencyKey) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      const order = await getOrder(reference);
      const capture = order && captureOf(order);
      if (!capture || !PAYPAL_ID.test(capture.id)) return { ok: false };
      const currency = capture.amount?.currency_code ?? order.purchase_units?.[0]?.amount?.currency_code ?? "";
      const value = toPayPalValue(amount, currency);
      if (!value) return { ok: false };
      // The refund's own key as PayPal-Request-Id: a retried refund is answered, not repeated.
      const answer = await call<{ id: string; status: string }>(
        "POST",
        `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`,
        { body: JSON.stringify({ amount: { currency_code: currency, value } }), requestId: idempotencyKey },
      );
      if (ok(answer.status)) return { ok: answer.body?.status === "COMPLETED" || answer.body?.status === "PENDING" };
      if (answer.status === 422) return { ok: false };
      fail(answer, "refund capture");
    },

    async status(idempotencyKey, reference) {
      // PayPal cannot find an order by our key (custom_id is not searchable). Without a reference
      // the create call's answer never reached us, so no buyer ever got the approval link and no
      // order of ours can have been approved: there is nothing there to settle.
      if (!reference) return { status: "unknown" };
      const order = await getOrder(reference);
      if (!order) return { status: "unknown" };
      const key = order.purchase_units?.[0]?.custom_id;
      if (key !== undefined && key !== idempotencyKey) return { status: "unknown" };
      // Approved but the buyer never came back (closed the tab on the way): authorised here.
      return settle(reference, { status: "pending", reference });
    },

    async parseNotification(body, headers) {
      if (!webhookId) return null;
      const transmission: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = headers.get(header);
        if (!value) return null;
        transmission[field] = value;
      }
      let event: { id?: unknown; event_type?: unknown; resource?: unknown };
      try {
        event = JSON.parse(body) as typeof event;
      } catch {
        return null;
      }
      if (
        typeof event !== "object" ||
        event === null ||
        typeof event.id !== "string" ||
        typeof event.event_type !== "string"
      )
        return null;
      // The body goes back to PayPal as it came, not re-serialised: PayPal checks the signature
      // over what it sent, and a re-encoding (number formats, escapes) would fail a genuine one.
      const fields = JSON.stringify({ ...transmission, webhook_id: webhookId });
      const verification = await call<{ verification_status?: string }>(
        "POST",
        "/v1/notifications/verify-webhook-signature",
        { body: `${fields.slice(0, -1)},"webhook_event":${body}}` },
      );
      if (verification.status === 400 || verification.status === 422) return null;
      if (!ok(verification.status)) fail(verification, "verify webhook signature");
      if (verification.body?.verification_status !== "SUCCESS") return null;

      const eventId = event.id;
      const resource = (event.resource ?? {}) as Order & Authorization;
      switch (event.event_type) {
        case "CHECKOUT.ORDER.APPROVED": {
          const key = resource.purchase_units?.[0]?.custom_id;
          if (!key || !PAYPAL_ID.test(resource.id ?? "")) return null;
          return { eventId, idempotencyKey: key, result: await gateway.status(key, resource.id) };
        }
        case "PAYMENT.AUTHORIZATION.CREATED":
        case "PAYMENT.AUTHORIZATION.VOIDED": {
          const key = resource.custom_id;
          const orderId = orderIdOfAuthorization(resource);
          if (!key || !orderId) return null;
          return {
            eventId,
            idempotencyKey: key,
            result:
              event.event_type === "PAYMENT.AUTHORIZATION.CREATED"
                ? authorised(orderId, resource.amount)
                : declined(orderId, "cancelled"),
          };
        }
        default:
          return { eventId, idempotencyKey: "", result: { status: "unknown" } };
      }
    },
  };
  return gateway;
}
