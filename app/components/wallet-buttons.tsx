import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

// Google Pay and Apple Pay need script by nature (the browser's wallet is a script API), so these
// buttons exist only where script runs and the browser says a wallet can pay: never a dead button.
// A wallet answers with a token, which the Pay form sends with method=googlePay or applePay; the
// gateway authorises it like a card. Without script, or without a wallet, nothing is shown.

type Wallet = "googlePay" | "applePay";

const WALLET_METHODS: Record<Wallet, string> = {
  googlePay: "https://google.com/pay",
  applePay: "https://apple.com/apple-pay",
};

async function walletAvailable(wallet: Wallet): Promise<boolean> {
  if (typeof window === "undefined" || typeof window.PaymentRequest !== "function") return false;
  try {
    const request = new PaymentRequest([{ supportedMethods: WALLET_METHODS[wallet] }], {
      total: { label: "Total", amount: { currency: "GBP", value: "0.00" } },
    });
    return await request.canMakePayment();
  } catch {
    return false;
  }
}

/** Asks the browser's wallet to pay; its answer (the token) goes in the form's walletToken field. */
async function payWithWallet(wallet: Wallet, button: HTMLButtonElement, amount: { currency: string; value: string }) {
  const form = button.form;
  if (!form) return;
  try {
    const request = new PaymentRequest([{ supportedMethods: WALLET_METHODS[wallet] }], {
      total: { label: "Total", amount },
    });
    const response = await request.show();
    const token = form.elements.namedItem("walletToken");
    if (token instanceof HTMLInputElement) token.value = JSON.stringify(response.details);
    await response.complete("success");
    form.requestSubmit(button);
  } catch {
    // The buyer closed the wallet: nothing to do, the page is as it was.
  }
}

export function WalletButtons({ methods, amount }: { methods: string[]; amount: { currency: string; value: string } }) {
  const { t } = useTranslation();
  const [available, setAvailable] = useState<Wallet[]>([]);
  useEffect(() => {
    let live = true;
    const wallets = (["googlePay", "applePay"] as const).filter((wallet) => methods.includes(wallet));
    void Promise.all(wallets.map(async (wallet) => ((await walletAvailable(wallet)) ? wallet : null))).then((found) => {
      if (live) setAvailable(found.filter((wallet): wallet is Wallet => wallet !== null));
    });
    return () => {
      live = false;
    };
  }, [methods]);
  if (available.length === 0) return null;
  return (
    <div className="wallet-buttons">
      <p className="hint">{t("payment.walletHint")}</p>
      <input type="hidden" name="walletToken" defaultValue="" />
      {available.map((wallet) => (
        <button
          key={wallet}
          type="submit"
          name="method"
          value={wallet}
          className="button button--secondary"
          onClick={(event) => {
            if (event.currentTarget.form?.querySelector<HTMLInputElement>('[name="walletToken"]')?.value) return;
            event.preventDefault();
            void payWithWallet(wallet, event.currentTarget, amount);
          }}
        >
          {t(`payment.${wallet}`)}
        </button>
      ))}
    </div>
  );
}
