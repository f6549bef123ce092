import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { basketOrder, guardPaymentPage, redirectForPayment } from "~/web/order-pages.server";
import { checkoutPath } from "~/urls/paths";
import { LAST_STEP } from "~/ticketing/checkout-steps";
import { useSupportPhone } from "~/components/support-phone";
import { track } from "~/web/track.server";
import type { ClientEvent } from "~/views/events";

// /checkout/verify: where a payment is while it is neither paid nor failed. The buyer comes here
// after Pay when the gateway has not answered at once, on the way to and back from a step at the
// gateway (device data, 3-D Secure challenge, PayPal approval), and when the answer took too long.
// Without script the waiting page refreshes itself and has a Check again button, and a link that
// stops the refreshing (WCAG 2.2.1: a time limit the buyer can turn off; decision 0019); with
// script it checks in the background and rotates its messages.

/** Seconds after which the waiting message moves to its second and third stage. */
const STAGES = [0, 5, 15];
const REFRESH_SECONDS = 3;
/** ?refresh=off: the buyer has asked the page to stop reloading itself. */
const REFRESH_OFF = { name: "refresh", value: "off" } as const;

export const handle = {
  titleKey: "processing.title",
  query: ["reference", REFRESH_OFF.name],
  // Only while waiting: the root puts it in the head, in a <noscript>, where HTML allows it.
  noscriptRefreshSeconds: (data: { view?: string; autoRefresh?: boolean } | undefined) =>
    data?.view === "processing" && data.autoRefresh ? REFRESH_SECONDS : undefined,
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const order = await basketOrder(request, context);
  const url = new URL(request.url);
  // Back from the gateway: the query names the payment in the gateway's own words (the sandbox's
  // `reference`, Stripe's `payment_intent`, PayPal's `token`). Carry on with what it sent, then
  // show the result on a clean URL so a reload does not send it again (nor keep Stripe's client
  // secret in the address bar).
  const reference = context.payments.returnedReference(url.searchParams);
  if (order && reference) {
    const returned = Object.fromEntries(url.searchParams);
    const state = await context.payments.resume(order, reference, returned);
    return redirectForPayment(context, order, state);
  }
  const guarded = await guardPaymentPage(request, context, "verify", order);
  const { state } = guarded;
  if (state.kind === "timedOut") {
    return {
      view: "timedOut" as const,
      trackedEvents: [track(context, "makePayment.failure", { orderId: guarded.order.id, reason: "timeout" })],
    };
  }
  if (state.kind === "action") {
    const event = state.action.kind === "challenge" ? "paymentChallengeRedirect" : "paymentDeviceDataRedirect";
    const trackedEvents =
      state.action.kind === "approval" ? [] : [track(context, event, { orderId: guarded.order.id })];
    return { view: "action" as const, action: state.action, trackedEvents };
  }
  const elapsed = Math.max(0, (context.clock.now().getTime() - new Date(state.startedAt).getTime()) / 1000);
  const stage = STAGES.filter((start) => elapsed >= start).length;
  const autoRefresh = url.searchParams.get(REFRESH_OFF.name) !== REFRESH_OFF.value;
  return { view: "processing" as const, stage, elapsed, autoRefresh, trackedEvents: [] as ClientEvent[] };
}

function Processing({ stage: serverStage, autoRefresh }: { stage: number; autoRefresh: boolean }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [stage, setStage] = useState(serverStage);
  useEffect(() => {
    // With script: ask again every few seconds without reloading the page, and move the message
    // on through its stages as time passes.
    const started = Date.now();
    const timer = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      setStage(Math.max(serverStage, STAGES.filter((start) => seconds >= start).length));
      if (revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [revalidator, serverStage]);
  return (
    <>
      <p role="status" aria-live="polite" className="processing__message">
        {t(`processing.stage${Math.min(stage, 3)}`)}
      </p>
      <noscript>
        {autoRefresh ? (
          <p>
            {t("processing.autoRefresh")}{" "}
            <a href={`${checkoutPath("verify")}?${REFRESH_OFF.name}=${REFRESH_OFF.value}`}>
              {t("processing.stopRefresh")}
            </a>
          </p>
        ) : (
          <p>{t("processing.refreshStopped")}</p>
        )}
      </noscript>
      <Form method="get" action={checkoutPath("verify")}>
        {autoRefresh ? null : <input type="hidden" name={REFRESH_OFF.name} value={REFRESH_OFF.value} />}
        <button type="submit" className="button button--secondary">
          {t("processing.checkAgain")}
        </button>
      </Form>
    </>
  );
}

function GatewayStep({
  action,
}: {
  action: { kind: string; url: string; method: "GET" | "POST"; fields: Record<string, string> };
}) {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    // With script the step starts by itself, as a bank's pages expect; without it, Continue.
    form.current?.submit();
    link.current?.click();
  }, []);
  if (action.method === "GET") {
    // A link, not a GET form: a form would drop the address's own query (PayPal's token) and a
    // provider's page address is to be followed exactly as given.
    return (
      <>
        <p>{t(`processing.${action.kind}`)}</p>
        <p>
          <a ref={link} href={action.url} className="button">
            {t("processing.continue")}
          </a>
        </p>
      </>
    );
  }
  return (
    <>
      <p>{t(`processing.${action.kind}`)}</p>
      {/* A plain form (not Remix's): the gateway's page is another site's in a real deployment.
          Only our own sandbox's pages get our CSRF token; another site must never see it. */}
      <form ref={form} method={action.method.toLowerCase()} action={action.url}>
        {action.method === "POST" && action.url.startsWith("/") && !action.url.startsWith("//") ? (
          <AuthenticityTokenInput />
        ) : null}
        {Object.entries(action.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="button">
          {t("processing.continue")}
        </button>
      </form>
    </>
  );
}

export default function Verify() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const phone = useSupportPhone();
  if (data.view === "timedOut") {
    return (
      <div className="message message--error" role="alert">
        <h1>{t("processing.timeoutTitle")}</h1>
        <p>{t("processing.timeoutBody")}</p>
        <p>{t("processing.timeoutEmail", { phone })}</p>
        <p>
          <Link to={checkoutPath(LAST_STEP)} className="button">
            {t("processing.tryAgain")}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <h1>{t("processing.title")}</h1>
      {data.view === "action" ? (
        <GatewayStep action={data.action} />
      ) : (
        <Processing stage={data.stage} autoRefresh={data.autoRefresh} />
      )}
    </>
  );
}
