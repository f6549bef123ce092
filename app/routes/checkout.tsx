import { Outlet } from "@remix-run/react";

// The checkout layout. It will load the basket once and show the countdown and the summary; each
// step still guards itself (a parent loader runs beside its children, not before them).
export default function CheckoutLayout() {
  return (
    <div className="checkout">
      <Outlet />
    </div>
  );
}
