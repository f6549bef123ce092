import type { GatewayResult, PaymentGateway } from "./gateway";

// Cards from one provider (the sandbox or Stripe), PayPal from PayPal itself: one gateway to the
// payment service, two underneath. Every reference PayPal's side hands out is marked, so a later
// call about a payment (continue, capture, void, refund, status) goes to the provider that took it,
// whatever the buyer's method was; and the two providers' references can never be confused.

const PAYPAL_MARK = "paypal:";

function marked(result: GatewayResult): GatewayResult {
  if (!("reference" in result) || result.reference === null) return result;
  return { ...result, reference: `${PAYPAL_MARK}${result.reference}` };
}

export function combineGateways(cards: PaymentGateway, paypal: PaymentGateway): PaymentGateway {
  const route = (reference: string) =>
    reference.startsWith(PAYPAL_MARK)
      ? { gateway: paypal, reference: reference.slice(PAYPAL_MARK.length), mark: marked }
      : { gateway: cards, reference, mark: (result: GatewayResult) => result };

  return {
    name: `${cards.name}+${paypal.name}`,
    cardBrands: cards.cardBrands,
    offers: { ...cards.offers, paypal: true },
    authorise: (request) => cards.authorise(request),
    startHostedCard: (request) => cards.startHostedCard(request),
    authoriseWallet: (request) => cards.authoriseWallet(request),
    startPayPal: async (request) => marked(await paypal.startPayPal(request)),

    returnedReference(query) {
      const fromCards = cards.returnedReference(query);
      if (fromCards) return fromCards;
      const fromPayPal = paypal.returnedReference(query);
      return fromPayPal ? `${PAYPAL_MARK}${fromPayPal}` : null;
    },

    async continue(reference, returned) {
      const target = route(reference);
      return target.mark(await target.gateway.continue(target.reference, returned));
    },
    capture: (reference, amount) => route(reference).gateway.capture(route(reference).reference, amount),
    void: (reference) => route(reference).gateway.void(route(reference).reference),
    refund: (reference, amount, key) => route(reference).gateway.refund(route(reference).reference, amount, key),

    async status(idempotencyKey, reference) {
      if (reference) {
        const target = route(reference);
        return target.mark(await target.gateway.status(idempotencyKey, target.reference));
      }
      // The first answer never came, so nothing says which provider was asked: the card provider
      // may find it by the key; PayPal cannot (its adapter says why) and answers unknown.
      const fromCards = await cards.status(idempotencyKey, null);
      return fromCards.status !== "unknown" ? fromCards : marked(await paypal.status(idempotencyKey, null));
    },

    async parseNotification(body, headers) {
      // Each provider checks its own signature and refuses the other's notifications.
      const fromCards = await cards.parseNotification(body, headers);
      if (fromCards) return fromCards;
      const fromPayPal = await paypal.parseNotification(body, headers);
      return fromPayPal && { ...fromPayPal, result: marked(fromPayPal.result) };
    },
  };
}
