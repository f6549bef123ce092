import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, accessSchema } from "~/forms/schemas.server";
import { COMPANION_CHOICES } from "~/forms/account-names";
import { requireCustomer, signInPath } from "~/web/session.server";
import { benefitsFor, membershipOf, readBuyer } from "~/web/buyer.server";
import { ensureBasket } from "~/web/tickets-page.server";
import { unlockForChange } from "~/web/checkout-flow.server";
import { LAST_STEP } from "~/ticketing/checkout-steps";
import { checkoutPath } from "~/urls/paths";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, RadioGroup, TextField } from "~/components/form-fields";
import { formatDate, formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// /membership, the catalogue route: the paid ("plus") membership, bought through the checkout like
// tickets (the basket carries it; no seats), and the access membership, which records the access
// needs a customer registers once. Both belong to an account, so joining asks a guest to sign in.

export const meta = headTags;

export const handle = { titleKey: "membership.title", query: ["saved"] };

const ACCESS_FIELDS = ["wheelchair", "companions", "otherNeeds"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const buyer = await readBuyer(request, context);
  const { market } = context.config;
  const [product, status, basket] = await Promise.all([
    context.memberships.product(market.currency),
    membershipOf(context, buyer),
    buyer.basketId ? context.baskets.answers(buyer.basketId) : undefined,
  ]);
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    head: await pageHead(request, context, { describe: (t) => t("seo.membership", { brand: t("brand.name") }) }),
    plus: product
      ? { name: product.name, price: product.price, currency: product.currency, months: product.months }
      : null,
    status,
    timeZone: market.timeZone,
    signedIn: buyer.customerId !== null,
    signInHref: signInPath("/membership"),
    inBasket: Boolean(basket?.membershipProductId),
    saved: saved === "access" || saved === "left" ? saved : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const customer = await requireCustomer(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  const buyer = await readBuyer(request, context);

  if (intent === "join" || intent === "remove") {
    const product = await context.memberships.product(context.config.market.currency);
    if (intent === "join" && !product) return redirect("/membership", 303);
    const headers = new Headers();
    const basketId = await ensureBasket(context, buyer.basketId, headers);
    await unlockForChange(context, await context.orders.byBasket(basketId));
    const benefits = await benefitsFor(context, buyer);
    const before = await context.baskets.price(basketId, benefits);
    await context.baskets.setMembership(basketId, intent === "join" ? product!.id : null);
    // The buyer's own change: the new total is the one they have seen, unless an earlier change
    // is still waiting for them to acknowledge it.
    const after = await context.baskets.price(basketId, benefits);
    if (before && !before.changed && after) await context.baskets.acknowledgePrices(basketId, after.fingerprint);
    context.logger.info({ customerId: customer.id, intent }, "membership in basket changed");
    return redirect(intent === "join" ? checkoutPath(LAST_STEP) : "/membership", { status: 303, headers });
  }

  if (intent === "leave-access") {
    await context.memberships.leaveAccess(customer.id);
    return redirect("/membership?saved=left", 303);
  }

  const submission = parseWithZod(form, { schema: accessSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await context.memberships.registerAccess(customer.id, {
    wheelchair: submission.value.wheelchair,
    companions: Number(submission.value.companions),
    otherNeeds: submission.value.otherNeeds || null,
  });
  return redirect("/membership?saved=access", 303);
}

export default function Membership() {
  const { t, i18n } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { plus, access } = page.status;
  const companions = access?.companions ?? 0;
  const [form, fields] = useSchemaForm((checks) => checks.accessSchema, lastResult, {
    wheelchair: access?.wheelchair ? "on" : undefined,
    companions: String(companions),
    otherNeeds: access?.otherNeeds ?? undefined,
  });
  const locale = i18n.language;
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ACCESS_FIELDS, t)} />
      <h1>{t("membership.title")}</h1>
      {page.saved ? (
        <p className="message message--success" role="status">
          {t(page.saved === "access" ? "membership.access.saved" : "membership.access.left")}
        </p>
      ) : null}

      <section className="membership" aria-labelledby="plus-title">
        <h2 id="plus-title">{t("membership.plus.title")}</h2>
        {page.plus ? (
          <>
            <p className="membership__price">
              {t("membership.plus.price", {
                price: formatMoney(page.plus.price, page.plus.currency, locale),
                count: page.plus.months,
              })}
            </p>
            <ul className="membership__benefits">
              <li>{t("membership.plus.presale")}</li>
              <li>{t("membership.plus.memberPrices")}</li>
              <li>{t("membership.plus.noTransactionFee")}</li>
              <li>{t("membership.plus.protection")}</li>
            </ul>
            {plus ? (
              <p className="message message--info">
                {t("membership.plus.member", { date: formatDate(plus.endsAt, page.timeZone, locale) })}
              </p>
            ) : null}
            {!page.signedIn ? (
              <p>
                <Link to={page.signInHref} className="button">
                  {t("membership.signInToJoin")}
                </Link>
              </p>
            ) : page.inBasket ? (
              <>
                <p>{t("membership.plus.inBasket")}</p>
                <div className="form-actions">
                  <Link to={checkoutPath(LAST_STEP)} className="button">
                    {t("membership.plus.checkout")}
                  </Link>
                  <PostForm>
                    <input type="hidden" name="intent" value="remove" />
                    <button type="submit" className="button button--secondary">
                      {t("membership.plus.remove")}
                    </button>
                  </PostForm>
                </div>
              </>
            ) : (
              <PostForm>
                <input type="hidden" name="intent" value="join" />
                <button type="submit" className="button">
                  {t(plus ? "membership.plus.renew" : "membership.plus.join", {
                    price: formatMoney(page.plus.price, page.plus.currency, locale),
                  })}
                </button>
              </PostForm>
            )}
          </>
        ) : (
          <p className="empty-state">{t("membership.empty")}</p>
        )}
      </section>

      <section className="membership" aria-labelledby="access-title">
        <h2 id="access-title">{t("membership.access.title")}</h2>
        <p>{t("membership.access.body")}</p>
        <ul className="membership__benefits">
          <li>{t("membership.access.spaces")}</li>
          <li>{t("membership.access.noTransactionFee")}</li>
        </ul>
        {access ? (
          <div className="message message--info">
            <p>{t("membership.access.member")}</p>
            <ul>
              {access.wheelchair ? <li>{t("membership.access.wheelchairUser")}</li> : null}
              {access.wheelchair ? <li>{t("membership.access.companionCount", { count: companions })}</li> : null}
              {access.otherNeeds ? <li>{t("membership.access.otherSaved", { needs: access.otherNeeds })}</li> : null}
            </ul>
          </div>
        ) : null}
        {page.signedIn ? (
          <>
            <PostForm id={form.id} onSubmit={form.onSubmit}>
              <input type="hidden" name="intent" value="access" />
              <CheckboxField
                field={fields.wheelchair}
                label={t("membership.access.wheelchair")}
                hint={t("membership.access.wheelchairHint")}
              />
              <RadioGroup
                field={fields.companions}
                legend={t("membership.access.companions")}
                hint={t("membership.access.companionsHint")}
                options={COMPANION_CHOICES.map((value) => ({
                  value,
                  label: t("membership.access.companionChoice", { count: Number(value) }),
                }))}
              />
              <TextField
                field={fields.otherNeeds}
                label={t("membership.access.other")}
                hint={t("membership.access.otherHint")}
              />
              <div className="form-actions">
                <button type="submit" className="button">
                  {t(access ? "membership.access.update" : "membership.access.join")}
                </button>
              </div>
            </PostForm>
            {access ? (
              <PostForm>
                <input type="hidden" name="intent" value="leave-access" />
                <button type="submit" className="button button--secondary">
                  {t("membership.access.leave")}
                </button>
              </PostForm>
            ) : null}
          </>
        ) : (
          <p>
            <Link to={page.signInHref} className="button">
              {t("membership.signInToJoin")}
            </Link>
          </p>
        )}
      </section>
    </>
  );
}
