import type { AppLoadContext } from "@remix-run/node";
import { DEFAULT_AUTH_POLICY, type Throttled } from "~/use-cases/auth.server";
import type { Translate } from "~/use-cases/email/order-email";
import { renderAlreadyRegistered, renderSignUpLink } from "~/use-cases/email/sign-up-email";

// The account emails a page sends, in the language of the page that asked.

/** The site's wording in this request's language, for an email. */
export async function emailWording(request: Request, context: AppLoadContext): Promise<Translate> {
  const language = await context.i18n.getLocale(request);
  const { t } = await context.i18n.createInstance(language, context.i18n.wordingSetFor(undefined));
  return (key, values) => t(key, values);
}

/** Queues an email and starts a delivery run at once, rather than waiting for the next. */
export async function sendNow(context: AppLoadContext, message: Parameters<AppLoadContext["outbox"]["enqueue"]>[0]) {
  await context.outbox.enqueue(message);
  context.outbox.kick();
}

/**
 * Asks for an account for an email (registration, or "Create account" after a purchase) and
 * emails its owner: a new address gets the link that creates the account, one with an account
 * gets word that someone tried, with the ways to sign in. Nothing here tells the person who
 * asked which it was: null (sent) or the throttle's refusal, the same for both.
 */
export async function requestAccount(
  request: Request,
  context: AppLoadContext,
  details: { email: string; firstName: string; lastName: string; orderId?: string; returnTo?: string },
): Promise<Throttled | null> {
  const asked = await context.auth.requestSignUp({ ...details, address: context.clientAddress });
  if (!asked.ok) return asked;
  const t = await emailWording(request, context);
  const site = context.config.publicUrl;
  if (asked.kind === "link") {
    const hours = DEFAULT_AUTH_POLICY.signUpHours;
    const email = renderSignUpLink({ link: `${site}/account/create/${asked.token}`, hours }, t);
    await sendNow(context, { kind: "signUpLink", to: asked.email, ...email });
  } else if (asked.kind === "known") {
    const email = renderAlreadyRegistered(
      {
        firstName: asked.customer.firstName,
        signInLink: `${site}/account/sign-in`,
        resetLink: `${site}/account/forgotten-password`,
      },
      t,
    );
    await sendNow(context, { kind: "alreadyRegistered", to: asked.customer.email, ...email });
  }
  return null;
}
