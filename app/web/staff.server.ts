import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/node";
import { methodNotAllowed, notFound } from "~/urls/params";
import { may, type StaffAction } from "~/ticketing/staff-roles";
import type { StaffSession } from "~/use-cases/staff.server";

// The staff's pages (issue 55): who the staff cookie signs in, and the one guard every staff
// loader and action but sign-in calls. Anyone else gets the site's own 404, as for an address
// that does not exist: the staff side does not say it is there, nor which role a page wants.
// Each loader and action calls it itself: Remix runs a page's loaders side by side, so a parent's
// check would not stop a child's.

export async function staffToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const token: unknown = await context.sessions.staffCookie.parse(request.headers.get("Cookie"));
  return typeof token === "string" && token ? token : null;
}

/** Who is signed in as staff, or null. Each call counts as activity (the idle limit starts again). */
export async function currentStaff(request: Request, context: AppLoadContext): Promise<StaffSession | null> {
  return context.readOnce("staffSession", async () => context.staff.session(await staffToken(request, context)));
}

/**
 * The member of staff signed in, when their role may do `action` (any member, when none is
 * named); otherwise throws a 404.
 */
export async function requireStaff(
  request: Request,
  context: AppLoadContext,
  action: StaffAction | null,
): Promise<StaffSession> {
  const session = await currentStaff(request, context);
  if (!session || (action !== null && !may(session.staff.role, action))) throw notFound();
  return session;
}

/**
 * What a staff page that has no form answers a POST: refused as to anyone (405), but a 404 to
 * anyone `action` does not let in, so it says nothing of the page to them.
 */
export async function refuseStaffPost(
  { request, context }: ActionFunctionArgs,
  action: StaffAction | null,
): Promise<never> {
  await requireStaff(request, context, action);
  throw methodNotAllowed();
}

export const staffSignInCookie = (context: AppLoadContext, token: string) =>
  context.sessions.staffCookie.serialize(token);

export const staffSignOutCookie = (context: AppLoadContext) =>
  context.sessions.staffCookie.serialize("", { maxAge: 0 });
