import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";

/** The per-order fee as the engine's orderFee gives it. */
export interface OrderFeeView {
  amount: number;
  waived: boolean;
}

/**
 * Said beside the prices before any seat is chosen: the prices shown include every per-ticket fee,
 * and the one fee that is per order (the transaction fee) is named with its amount, or as waived
 * for a member. Drip-pricing rules require this before the buyer commits to anything.
 */
export function AllInNote({ fee, currency, id }: { fee: OrderFeeView; currency: string; id?: string }) {
  const { t, i18n } = useTranslation();
  const text = fee.waived
    ? t("allInPrices.feeWaived")
    : fee.amount > 0
      ? t("allInPrices.withFee", { fee: formatMoney(fee.amount, currency, i18n.language) })
      : t("allInPrices.noFee");
  return (
    <p id={id} className="hint all-in-note">
      {text}
    </p>
  );
}
