import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { readBasket, readBuyer, stillInCheckout } from "~/web/buyer.server";
import { holdView } from "~/use-cases/hold-view.server";
import { checkoutVenuePhone } from "~/web/venue-phone.server";
import { HoldPanel } from "~/components/hold-panel";
import type { SupportPhoneHandle } from "~/components/support-phone";

// The checkout layout: the hold's clock on every step (rendered by the server, so it is there
// without script), and the venue's phone number for the header and every page's help. Each step
// still loads and guards what it needs itself: Remix runs this loader beside the step's, not
// before it.

export const handle: SupportPhoneHandle = {
  supportPhone: (data) => (data as { supportPhone?: string | null } | undefined)?.supportPhone,
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [buyer] = await Promise.all([readBuyer(request, context), stillInCheckout(request, context)]);
  const basket = buyer.basketId ? await readBasket(context, buyer.basketId) : undefined;
  const reservation = basket ? await context.reservations.reservationOf(basket) : null;
  return {
    hold: reservation ? holdView(context, reservation) : null,
    supportPhone: await checkoutVenuePhone(request, context, reservation),
  };
}

export default function CheckoutLayout() {
  const { hold } = useLoaderData<typeof loader>();
  return (
    <div className="checkout">
      {hold ? <HoldPanel hold={hold} releaseTo={hold.ticketsHref} /> : null}
      <div className="checkout__step">
        <Outlet />
      </div>
    </div>
  );
}
