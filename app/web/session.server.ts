import type { AppLoadContext, Cookie, Session } from "@remix-run/node";
import type { Config } from "~/config/env.server";
import type { ForcedVariations } from "~/config/experiments";
import { DEFAULT_AUTH_POLICY, type Customer } from "~/use-cases/auth.server";
import { DEFAULT_STAFF_POLICY } from "~/use-cases/staff.server";
import { createCookie, createCookieSessionStorage } from "./cookies.server";
import { csrfTokens } from "./csrf.server";

export interface Attribution {
  crmCampaignId?: string;
  crmUserId?: string;
  crmEmail?: string;
  src?: string;
  cfg?: string;
}

export interface SessionData {
  visitorId: string;
  attribution: Attribution;
  forcedVariations: ForcedVariations;
}

export type BuyerSession = Session<SessionData>;

const YEAR_SECONDS = 60 * 60 * 24 * 365;
const AUTH_DAYS = DEFAULT_AUTH_POLICY.sessionDays;

/** How long after paying the browser that paid is shown its order (app/web/order-pages.server.ts). */
export const ORDER_SHOWN_MINUTES = 30;

/**
 * The session cookie, the CSRF cookie and the two preference cookies (language, theme).
 * In production every cookie is Secure and the session and CSRF cookies carry the `__Host-`
 * prefix, which browsers only accept over https, for path "/" and without a Domain: a sibling
 * subdomain can then never plant or overwrite them.
 */
export function createSessionService(config: Config) {
  // Without a secret Remix's cookies would go unsigned: anyone could write their own.
  if (config.sessionSecrets.length === 0) throw new Error("no secret to sign cookies with");
  const secure = config.production;
  const hostPrefix = secure ? "__Host-" : "";
  const base = { path: "/", sameSite: "lax" as const, secure, secrets: config.sessionSecrets };

  const storage = createCookieSessionStorage<SessionData>({
    cookie: { ...base, name: `${hostPrefix}session`, httpOnly: true },
  });
  const csrfCookie: Cookie = createCookie(`${hostPrefix}csrf`, { ...base, httpOnly: true });
  const csrf = csrfTokens(csrfCookie);
  const languageCookie: Cookie = createCookie("lng", { ...base, secrets: undefined, maxAge: YEAR_SECONDS });
  const themeCookie: Cookie = createCookie("theme", { ...base, secrets: undefined, maxAge: YEAR_SECONDS });
  // The buyer's basket, a promo code waiting for a basket, and tracked events waiting for the next
  // page: each in its own cookie, because Remix runs a page's loaders side by side and two of
  // them committing one session cookie would overwrite each other.
  const basketCookie: Cookie = createCookie(`${hostPrefix}basket`, { ...base, httpOnly: true });
  const promoCookie: Cookie = createCookie(`${hostPrefix}promo`, { ...base, httpOnly: true });
  const eventsCookie: Cookie = createCookie(`${hostPrefix}events`, { ...base, httpOnly: true });
  // A place in a waiting room's line (issue 54): signed with a key of its own, so the door can
  // check a refresh without the store; kept until the browser closes, as the session is.
  const placeCookie: Cookie = createCookie(`${hostPrefix}place`, { ...base, httpOnly: true });
  // The order just paid for: the confirmation page's, once the basket cookie is gone. The page
  // shows it for a short time after paying (app/web/order-pages.server.ts, by the server's clock);
  // the browser may drop the cookie then too.
  const orderCookie: Cookie = createCookie(`${hostPrefix}order`, {
    ...base,
    httpOnly: true,
    maxAge: ORDER_SHOWN_MINUTES * 60,
  });
  // The signed-in customer's session token (the store keeps its hash). Lasts as long as the
  // store's session; signing out clears both.
  const authCookie: Cookie = createCookie(`${hostPrefix}auth`, {
    ...base,
    httpOnly: true,
    maxAge: AUTH_DAYS * 24 * 60 * 60,
  });

  // A member of staff's session token (decision 0059): a cookie of its own, so signed with keys of
  // its own (cookies.server.ts), and its token looked up in the staff's sessions only, so neither
  // a buyer's auth cookie nor its token signs anyone in as staff, nor the other way round. Strict:
  // no link from another site arrives signed in to the staff's pages. Lasts as long as the
  // store's session at most; the store ends it sooner when idle.
  const staffCookie: Cookie = createCookie(`${hostPrefix}staff`, {
    ...base,
    sameSite: "strict",
    httpOnly: true,
    maxAge: DEFAULT_STAFF_POLICY.sessionHours * 60 * 60,
  });

  return {
    storage,
    csrfCookie,
    languageCookie,
    themeCookie,
    basketCookie,
    promoCookie,
    eventsCookie,
    placeCookie,
    orderCookie,
    authCookie,
    staffCookie,
    getSession: (request: Request) => storage.getSession(request.headers.get("Cookie")),
    commitSession: (session: BuyerSession) => storage.commitSession(session),
    /** The buyer's CSRF token masked for this response's page, and the Set-Cookie header to send when it is new. */
    csrfToken: (request: Request) => csrf.commitToken(request),
    /** Throws a 403 response when a form arrives without this buyer's token (app/web/csrf.server.ts). */
    verifyCsrf: (request: Request) => csrf.verify(request),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

// The signed-in customer, read from the auth cookie, and the cookies that sign in and out.

export function authToken(request: Request, context: AppLoadContext): Promise<string | null> {
  // The root's loader and the buyer's reading both ask (each an HMAC): once per page.
  return context.readOnce("authToken", async () => {
    const token: unknown = await context.sessions.authCookie.parse(request.headers.get("Cookie"));
    return typeof token === "string" && token ? token : null;
  });
}

export async function currentCustomer(request: Request, context: AppLoadContext): Promise<Customer | null> {
  return context.auth.customer(await authToken(request, context));
}

export const signInCookie = (context: AppLoadContext, token: string) => context.sessions.authCookie.serialize(token);

export const signOutCookie = (context: AppLoadContext) => context.sessions.authCookie.serialize("", { maxAge: 0 });

/** The sign-in page's address, coming back to `path` afterwards. */
export const signInPath = (path: string) => `/account/sign-in?redirectTo=${encodeURIComponent(path)}`;

/** For pages only a signed-in customer sees: the customer, or a redirect to sign in and come back. */
export async function requireCustomer(request: Request, context: AppLoadContext): Promise<Customer> {
  const customer = await currentCustomer(request, context);
  if (customer) return customer;
  const url = new URL(request.url);
  throw new Response(null, { status: 303, headers: { Location: signInPath(url.pathname + url.search) } });
}
