import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { notFound } from "~/urls/params";
import { requireStaff, staffSignOutCookie, staffToken } from "~/web/staff.server";

// Signing out (POST only; the form is in the staff's header, routes/staff-frame.tsx): ends the session in the store and clears the
// cookie. Like every staff address, a 404 to anyone not signed in as staff.

export function loader(_args: LoaderFunctionArgs): never {
  throw notFound();
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, null);
  const token = await staffToken(request, context);
  if (token) await context.staff.signOut(token);
  return redirect("/staff/sign-in", {
    status: 303,
    headers: { "Set-Cookie": await staffSignOutCookie(context) },
  });
}

/** The site's own not-found page for a GET, as at any address that does not exist. */
export default function StaffSignOut() {
  return null;
}
