import { lazy, Suspense } from "react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { applyPromoCode } from "~/web/buyer.server";
import { fullName } from "~/views/contact-details";
import {
  acceptOwnChange,
  cardTypeNames,
  guardStep,
  stepFrame,
  trackedPerformance,
  unlockForChange,
  type CheckoutState,
} from "~/web/checkout-flow.server";
import {
  parseWithZod,
  promoSchema,
  voucherSchema,
  acceptedBrands,
  payFormSchema,
  readCard,
  type PayFormOptions,
  type PayMethod,
} from "~/forms/schemas.server";

import { errorsForSummary } from "~/forms/checkout/messages";
import { redirectForPayment } from "~/web/order-pages.server";
import { WAITING_PAGE } from "~/ticketing/checkout-steps";
import { checkoutPath } from "~/urls/paths";
import { CheckoutStep, CheckoutStepBoundary, stepErrorTitleKey } from "~/components/checkout-step";
import { RadioGroup, TextField } from "~/components/form-fields";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import type { PayInput } from "~/use-cases/pay.server";
import { flashEvents, track } from "~/web/track.server";
import type { ClientEvent } from "~/views/events";

// Only a deployment registered for a wallet (WALLETS) offers one, and only with script: the
// buttons' code is fetched then, not by every buyer's payment page (the page's 120 KB budget).
const WalletButtons = lazy(() =>
  import("~/components/wallet-buttons").then((module) => ({ default: module.WalletButtons })),
);

// /checkout/payment: the itemised summary, promo codes and gift vouchers, and Pay. Three forms,
// one action switching on `intent`. Prices are the engine's; Pay places the order at the prices
// the buyer accepted (a change since then stops it with the price-change alert) and hands it to
// the payment service, which charges once however often Pay is pressed.

export const handle = { titleKey: "checkout.steps.payment", errorTitleKey: stepErrorTitleKey };
export const ErrorBoundary = CheckoutStepBoundary;

/**
 * Card and PayPal wherever a gateway is set up; the wallets the deployment registered for, which
 * the page itself offers only with script and where the browser has them. Sponsored-partner seats
 * are paid by the partner's card and nothing else: PayPal and wallets could be funded by any card.
 */
function methodsFor(context: LoaderFunctionArgs["context"], state: CheckoutState): PayMethod[] {
  if (!context.payments) return [];
  if (sponsoredSeats(state)) return ["card"];
  const { offers } = context.payments;
  return ["card", ...(offers.paypal ? ["paypal" as const] : []), ...(offers.wallets ? context.config.wallets : [])];
}

function sponsoredSeats(state: CheckoutState): boolean {
  return (state.reservation?.seats ?? []).some((seat) => seat.restrictions.includes("amex"));
}

function promoCode(state: CheckoutState) {
  const line = state.price.priced.lines.find((candidate) => candidate.kind === "discount");
  if (line?.kind === "discount") return line.code;
  return state.basket.promo?.code ?? null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "payment");
  const performanceId = trackedPerformance(state);
  const methods = methodsFor(context, state);
  const events: ClientEvent[] = [
    track(context, "fetchPaymentMethods.request", { performanceId }),
    methods.length
      ? track(context, "fetchPaymentMethods.success", { performanceId, count: methods.length })
      : track(context, "fetchPaymentMethods.failure", { performanceId, reason: "none" }),
    track(context, "fetchVouchers.request", { performanceId }),
    track(context, "fetchVouchers.success", { performanceId, count: state.price.priced.vouchers.length }),
  ];
  // The last payment failed (declined, timed out, cancelled at PayPal): say so before the retry.
  // An order refused before any payment (a promo code used up meanwhile) had no payment to fail.
  const lastPayment =
    state.order?.status === "failed" || state.order?.status === "cancelled"
      ? await context.payments.state(state.order)
      : undefined;
  const retry = lastPayment?.kind === "failed" || lastPayment?.kind === "timedOut";
  if (retry) events.push(track(context, "paymentRetryAlert", { performanceId }));
  return {
    frame: await stepFrame(context, state),
    methods,
    cardEntry: context.payments.offers.cardEntry,
    brands: acceptedBrands(sponsoredSeats(state)),
    // Named on the server: the names are the same for every buyer, and no browser needs the code.
    cardTypeNames: cardTypeNames(acceptedBrands(sponsoredSeats(state))),
    sponsored: sponsoredSeats(state),
    voucherKind: state.seller.country === "US" ? ("giftCard" as const) : ("voucher" as const),
    promo: promoCode(state),
    toPay: state.price.priced.toPay,
    currency: state.seller.currency,
    expired: state.reservation?.expired ?? false,
    retry,
    trackedEvents: events,
  };
}

type ActionResult =
  | ReturnType<Awaited<ReturnType<typeof parseWithZod>>["reply"]>
  | { form: "pay" | "promo" | "voucher"; error: { key: string; values?: Record<string, string | number> } };

export async function action({ request, context }: ActionFunctionArgs) {
  const state = await guardStep(request, context, "payment");
  const form = await request.formData();
  const intent = form.get("intent");
  const headers = new Headers();
  const performanceId = trackedPerformance(state);
  const fail = (result: ActionResult, status = 400) => data({ intent, result }, { status });

  if (intent === "promo") {
    const submission = parseWithZod(form, { schema: promoSchema });
    if (submission.status !== "success") return fail(submission.reply());
    // Promo codes are for tickets; a membership on its own has none to discount or unlock.
    if (!state.reservation || !state.venue)
      return fail(submission.reply({ fieldErrors: { promoCode: ["promo.notForEvent"] } }));
    const outcome = await applyPromoCode(context, {
      source: "form",
      code: submission.value.promoCode,
      target: {
        performanceId,
        titleSlug: state.reservation.show.titleSlug,
        venueSlug: state.venue.slug,
        currency: state.seller.currency,
      },
      basketId: state.basketId,
      beforeSaving: () => unlockForChange(context, state.order),
    });
    if (!outcome.ok) {
      await flashEvents(context, headers, outcome.events);
      return fail(submission.reply({ fieldErrors: { promoCode: [`promo.${outcome.reason}`] } }));
    }
    await acceptOwnChange(context, state);
    headers.append("Set-Cookie", outcome.cookie);
    await flashEvents(context, headers, outcome.events);
    return redirect(checkoutPath("payment"), { headers });
  }

  if (intent === "voucher") {
    const kind = state.seller.country === "US" ? "giftCard" : "voucher";
    const submission = parseWithZod(form, { schema: voucherSchema(kind) });
    if (submission.status !== "success") return fail(submission.reply());
    if (sponsoredSeats(state))
      return fail(submission.reply({ fieldErrors: { voucherNumber: ["payment.brandNotAccepted"] } }));
    const session = await context.sessions.getSession(request);
    const found = await context.vouchers.lookup(
      submission.value.voucherNumber,
      submission.value.voucherCode,
      state.seller.currency,
      {
        address: context.clientAddress,
        others: [`basket:${state.basketId}`, `visitor:${String(session.get("visitorId") ?? "none")}`],
      },
    );
    if (!found.ok) return fail(submission.reply({ fieldErrors: { voucherNumber: [`vouchers.${found.reason}`] } }));
    await unlockForChange(context, state.order);
    await context.baskets.addVoucher(state.basketId, found.voucher.id);
    await acceptOwnChange(context, state);
    return redirect(checkoutPath("payment"));
  }

  if (intent === "remove-voucher") {
    await unlockForChange(context, state.order);
    await context.baskets.removeVoucher(state.basketId, String(form.get("voucherId") ?? ""));
    await acceptOwnChange(context, state);
    return redirect(checkoutPath("payment"));
  }

  // Pay.
  if (state.reservation?.expired) return fail({ form: "pay", error: { key: "payment.expiredBody" } }, 409);
  const options: PayFormOptions = {
    methods: methodsFor(context, state),
    brands: acceptedBrands(sponsoredSeats(state)),
    now: context.clock.now(),
    free: state.price.priced.toPay === 0,
    cardEntry: context.payments.offers.cardEntry,
  };
  const submission = parseWithZod(form, { schema: payFormSchema(options) });
  // The card number and CVV never come back into the page, not even in its data.
  if (submission.status !== "success") return fail(submission.reply({ hideFields: ["cardNumber", "cvv"] }));
  const contacts = state.answers.contacts!;
  const events: ClientEvent[] = [
    track(context, "makePayment.request", { performanceId, method: submission.value.method }),
  ];
  // What the Pay button said. A page without it, or with anything but a whole amount, is not one
  // of ours as it stands now, and is refused like an out-of-date one.
  const shown = Number(form.get("acceptedToPay"));
  const placed = await context.orderLifecycle.placeOrder(
    state.basket,
    {
      name: fullName(contacts),
      email: contacts.email,
      contacts: JSON.stringify(contacts),
      language: await context.i18n.getLocale(request),
      customerId: state.buyer.customerId,
    },
    { toPay: Number.isSafeInteger(shown) ? shown : -1 },
    state.benefits,
  );
  if (!placed.ok) {
    events.push(track(context, "makePayment.failure", { performanceId, reason: placed.reason }));
    await flashEvents(context, headers, events);
    const key = {
      priceChanged: "payment.totalChanged",
      promoUsed: "payment.promoUsedNotCharged",
      voucherSpent: "payment.voucherSpentNotCharged",
      signInRequired: "membership.signInToBuy",
      empty: "checkout.emptyBasket",
    }[placed.reason];
    return data({ intent, result: { form: "pay" as const, error: { key } } }, { status: 409, headers });
  }
  const method = submission.value.method;
  const input: PayInput =
    method === "card"
      ? options.cardEntry === "hosted"
        ? { method: "hostedCard" }
        : { method, card: readCard(submission.value, options) }
      : method === "paypal" || method === "voucher"
        ? { method }
        : { method: method as "googlePay" | "applePay", token: submission.value.walletToken ?? "" };
  events.push(track(context, "paymentRequestSent", { performanceId }));
  const result = await context.payments.pay(
    placed.order,
    input,
    {
      description: `${placed.order.show_name} ${placed.order.number}`,
      orderNumber: placed.order.number,
      acceptedBrands: options.brands,
      returnUrl: checkoutPath(WAITING_PAGE),
    },
    { fresh: placed.fresh },
  );
  return redirectForPayment(context, placed.order, result, events);
}

function FormError({ error }: { error?: { key: string; values?: Record<string, string | number> } }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <div className="message message--error" role="alert">
      <p>{t(error.key, error.values)}</p>
    </div>
  );
}

export default function Payment() {
  const { t, i18n } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const {
    frame,
    methods,
    cardEntry,
    brands,
    cardTypeNames: names,
    sponsored,
    voucherKind,
    promo,
    toPay,
    currency,
    expired,
    retry,
  } = loaderData;
  const actionData = useActionData<typeof action>();
  const result = actionData?.result;
  const replied = result && !("form" in result) ? result : undefined;
  const formError = result && "form" in result ? result : undefined;
  const money = (amount: number) => formatMoney(amount, currency, i18n.language);
  const now = new Date();
  const cardOffered = methods.includes("card");
  // The card form is what the buyer sees and fills in, so the card is the method until they
  // choose another: a buyer who types their card and presses Pay is not refused for want of a
  // tick (in a text browser or any other). A form sent with no method still gets the spec's
  // "Please select a payment method".
  const [payForm, payFields] = useSchemaForm(
    (checks) => checks.payFormSchema({ methods, brands, now, free: toPay === 0, cardEntry }),
    actionData?.intent === "pay" || actionData?.intent === null ? replied : undefined,
    cardOffered ? { method: "card" } : undefined,
    { id: "pay" },
  );
  const [promoForm, promoFields] = useSchemaForm(
    (checks) => checks.promoSchema,
    actionData?.intent === "promo" ? replied : undefined,
    undefined,
    { id: "promo", revalidate: false },
  );
  const [voucherForm, voucherFields] = useSchemaForm(
    (checks) => checks.voucherSchema(voucherKind),
    actionData?.intent === "voucher" ? replied : undefined,
    undefined,
    { id: "voucher", revalidate: false },
  );
  // Pay was stopped because the amount had changed: the alert stays until the buyer has seen it,
  // even when the page they pressed Pay on was only out of date (another tab's change).
  const stoppedForPrice = formError?.error.key === "payment.totalChanged";
  const errors = [
    ...errorsForSummary(promoForm.allErrors, ["promoCode"], t),
    ...errorsForSummary(voucherForm.allErrors, ["voucherNumber", "voucherCode"], t),
    ...errorsForSummary(payForm.allErrors, ["method", "cardNumber", "cardOwner", "expiry", "cvv"], t),
  ];
  const cardTypes = t("validation.orList", { items: names });
  const noMethods = methods.length === 0;
  return (
    <CheckoutStep
      title={t("checkout.steps.payment")}
      frame={stoppedForPrice ? { ...frame, priceChanged: true } : frame}
      errors={errors}
      summaryFirst
    >
      {retry ? (
        <div className="message message--error" role="alert">
          <p>{t("payment.retryAlert")}</p>
        </div>
      ) : null}

      <section aria-labelledby="promo-title" className="payment-section">
        <h2 id="promo-title">{t("payment.promoTitle")}</h2>
        {promo ? (
          <p>
            {t("promo.appliedCode", { code: promo })}{" "}
            <Link
              to={`${checkoutPath("hold")}?confirm=remove-promo&returnTo=${encodeURIComponent(checkoutPath("payment"))}`}
            >
              {t("promo.remove")}
            </Link>
          </p>
        ) : (
          <PostForm id={promoForm.id} onSubmit={promoForm.onSubmit}>
            <input type="hidden" name="intent" value="promo" />
            <TextField field={promoFields.promoCode} label={t("payment.promoLabel")} autoComplete="off" />
            <button type="submit" className="button button--secondary">
              {t("payment.promoApply")}
            </button>
          </PostForm>
        )}
      </section>

      <section aria-labelledby="voucher-title" className="payment-section">
        <h2 id="voucher-title">{t("payment.voucherTitle")}</h2>
        {frame.summary.vouchers.map((voucher) => (
          <PostForm key={voucher.id} className="voucher-applied">
            <p>
              {t("payment.voucherApplied", {
                ending: voucher.label.values?.ending ?? "",
                amount: money(voucher.amount),
                remaining: money(voucher.remaining),
              })}
            </p>
            <input type="hidden" name="voucherId" value={voucher.id} />
            <input type="hidden" name="intent" value="remove-voucher" />
            <button type="submit" className="link-button">
              {t("payment.voucherRemove")}
            </button>
          </PostForm>
        ))}
        {expired ? null : toPay > 0 ? (
          <PostForm id={voucherForm.id} onSubmit={voucherForm.onSubmit}>
            <input type="hidden" name="intent" value="voucher" />
            <TextField field={voucherFields.voucherNumber} label={t("payment.voucherNumber")} autoComplete="off" />
            <TextField field={voucherFields.voucherCode} label={t("payment.voucherCode")} autoComplete="off" />
            <button type="submit" className="button button--secondary">
              {t("payment.voucherApply")}
            </button>
          </PostForm>
        ) : (
          <p>{t("payment.coveredByVoucher")}</p>
        )}
      </section>

      <section aria-labelledby="pay-title" className="payment-section">
        <h2 id="pay-title">{t("payment.methodLegend")}</h2>
        {formError ? <FormError error={formError.error} /> : null}
        {expired ? (
          // Spec section 4: the pay button reads "Reservation expired". The hold panel beside it
          // says why and offers to reselect or cancel, so the page does not say it again.
          <div className="form-actions">
            <button type="button" className="button" disabled>
              {t("hold.reservationExpired")}
            </button>
          </div>
        ) : noMethods ? (
          <div className="message message--error" role="alert">
            <p>
              <strong>{t("payment.noMethodsTitle")}</strong>
            </p>
            <p>{t("payment.noMethodsBody")}</p>
          </div>
        ) : (
          <PostForm id={payForm.id} onSubmit={payForm.onSubmit}>
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="acceptedToPay" value={toPay} />
            {toPay > 0 ? (
              <>
                {sponsored ? <p className="message">{t("payment.sponsoredOnly")}</p> : null}
                {methods.some((method) => method === "googlePay" || method === "applePay") ? (
                  <Suspense fallback={null}>
                    <WalletButtons methods={methods} amount={{ currency, value: (toPay / 100).toFixed(2) }} />
                  </Suspense>
                ) : null}
                <RadioGroup
                  field={payFields.method}
                  labelledBy="pay-title"
                  options={[
                    {
                      value: "card",
                      label: t("payment.card"),
                      hint:
                        cardEntry === "hosted"
                          ? `${t("payment.accepted", { cardTypes })} ${t("payment.hostedCardHint")}`
                          : t("payment.accepted", { cardTypes }),
                    },
                    { value: "paypal", label: t("payment.paypal"), hint: t("payment.paypalHint") },
                  ].filter((option) => methods.includes(option.value as PayMethod))}
                />
                {/* Cards typed on the provider's own page (hosted): nothing of the card is asked here. */}
                {cardOffered && cardEntry === "onSite" ? (
                  <fieldset className="card-details">
                    <legend>{t("payment.card")}</legend>
                    <p className="hint">{t("payment.secure")}</p>
                    <TextField
                      field={payFields.cardNumber}
                      label={t("payment.cardNumber")}
                      autoComplete="cc-number"
                      inputMode="numeric"
                      keepValue={false}
                    />
                    <TextField field={payFields.cardOwner} label={t("payment.cardOwner")} autoComplete="cc-name" />
                    <TextField
                      field={payFields.expiry}
                      label={t("payment.expiry")}
                      hint={t("payment.expiryHint")}
                      autoComplete="cc-exp"
                    />
                    <TextField
                      field={payFields.cvv}
                      label={t("payment.cvv")}
                      hint={t("payment.cvvHint")}
                      autoComplete="cc-csc"
                      inputMode="numeric"
                      keepValue={false}
                    />
                  </fieldset>
                ) : null}
              </>
            ) : (
              <input type="hidden" name="method" value="voucher" />
            )}
            <div className="form-actions">
              <button type="submit" className="button">
                {toPay > 0 ? t("payment.pay", { amount: money(toPay) }) : t("payment.confirmFree")}
              </button>
            </div>
          </PostForm>
        )}
      </section>
    </CheckoutStep>
  );
}
