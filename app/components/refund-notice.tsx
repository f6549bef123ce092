import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";

/** What has been refunded of an order, on every page of it (the confirmation, the e-tickets). */
export function RefundNotice({
  refund,
}: {
  refund: { status: "refunded" | "partlyRefunded"; amount: number; currency: string } | null;
}) {
  const { t, i18n } = useTranslation();
  if (!refund) return null;
  return (
    <div className="message" role="status">
      <p>
        {t(refund.status === "refunded" ? "refunds.page.refunded" : "refunds.page.partlyRefunded", {
          amount: formatMoney(refund.amount, refund.currency, i18n.language),
        })}
      </p>
    </div>
  );
}
