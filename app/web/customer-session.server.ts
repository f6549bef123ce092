import type { AppLoadContext } from "@remix-run/node";
import type { Customer } from "~/services/auth.server";

// The signed-in customer, read from the auth cookie, and the cookies that sign in and out.

export async function authToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const token: unknown = await context.sessions.authCookie.parse(request.headers.get("Cookie"));
  return typeof token === "string" && token ? token : null;
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
