import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderCsvWording, ordersCsvFileName, readReport, refuseReportPost } from "~/web/staff-reports.server";

// A performance's paid orders as a CSV download (issue 55 item 4), one line per ticket, headed in
// the request's language. A resource route (no page): it answers with the file itself. Buyers'
// names and emails are in it, so nothing may keep a copy: the page cache keeps only routes whose
// handle asks (this one has none), and Cache-Control: no-store comes with every /staff address
// (PRIVATE_PAGES in app/web/app.server.ts; setting it here too would send it twice).

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const [performance, csv] = await readReport(args, async (reported) =>
    context.performanceReports.ordersCsv(
      reported.performanceId,
      await orderCsvWording(request, context, reported.currency),
    ),
  );
  // The byte order mark tells Excel the file is UTF-8: without it, Excel reads a buyer's "José"
  // as "JosÃ©". Other spreadsheets and CSV readers skip it.
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ordersCsvFileName(performance)}"`,
    },
  });
}

// Nothing is posted here: refused as to anyone, but a 404 to anyone not allowed.
export const action = refuseReportPost;
