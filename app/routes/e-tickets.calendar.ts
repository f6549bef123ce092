import type { LoaderFunctionArgs } from "@remix-run/node";

// "Add to calendar" for a paid order's performance: an iCalendar file (RFC 5545), found by the
// same secret key as the e-tickets, so it tells nobody more than the e-tickets link already does.
// A resource route (no page). Cache-Control: no-store comes with every /e-tickets address
// (PRIVATE_PAGES in app/web/app.server.ts); the page cache keeps only routes whose handle asks.

export async function loader({ params, context }: LoaderFunctionArgs) {
  const file = params.key ? await context.orderCalendars.file(params.key) : undefined;
  if (!file) throw new Response(null, { status: 404 });
  return new Response(file, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      // Offered to the calendar app, or saved, under a name that says what it is.
      "Content-Disposition": 'attachment; filename="performance.ics"',
    },
  });
}
