import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { dateTimeFormat } from "~/i18n/format";
import {
  ORDER_CSV_COLUMNS,
  type OrderCsvWording,
  type ReportedPerformance,
} from "~/ticketing/performance-report.server";
import { methodNotAllowed, notFound, parseParams, performanceParams } from "~/urls/params";
import { requireStaff } from "./staff.server";

// What the staff's performance reports (issue 55 item 4) share: the guard and the performance
// their address names, the CSV's words in the request's language, and the CSV file's name.

/** The performance a reports address names, for a member of staff who may see reports; else a 404. */
export async function reportedPerformance(
  request: Request,
  context: AppLoadContext,
  params: LoaderFunctionArgs["params"],
): Promise<ReportedPerformance> {
  await requireStaff(request, context, "viewReports");
  const { performanceId } = parseParams(params, performanceParams);
  // Ids are stored upper case; an address typed or pasted in lower case names the same performance.
  const performance = await context.performanceReports.about(performanceId.toUpperCase());
  if (!performance) throw notFound();
  return performance;
}

/**
 * A report's loader: the performance its address names and what `read` makes of it, a 404 where
 * either is missing.
 */
export async function readReport<T>(
  { request, context, params }: LoaderFunctionArgs,
  read: (performance: ReportedPerformance) => Promise<T | null>,
): Promise<[ReportedPerformance, T]> {
  const performance = await reportedPerformance(request, context, params);
  const found = await read(performance);
  if (found === null) throw notFound();
  return [performance, found];
}

/** A POST to a report's address is no form of its: refused as to anyone, but a 404 to anyone not allowed. */
export async function refuseReportPost({ request, context, params }: ActionFunctionArgs): Promise<never> {
  await reportedPerformance(request, context, params);
  throw methodNotAllowed();
}

/** The CSV's header and yes/no in the request's language; the price heading names the currency. */
export async function orderCsvWording(
  request: Request,
  context: AppLoadContext,
  currency: string,
): Promise<OrderCsvWording> {
  const language = await context.i18n.getLocale(request);
  const { t } = await context.i18n.createInstance(language, context.i18n.wordingSetFor(undefined));
  return {
    header: Object.fromEntries(
      ORDER_CSV_COLUMNS.map((column) => [column, t(`staff.reports.csv.${column}`, { currency })]),
    ) as OrderCsvWording["header"],
    yes: t("staff.reports.csv.yes"),
    no: t("staff.reports.csv.no"),
  };
}

/**
 * The CSV's file name: the show's slug and the performance's local date and time
 * ("the-lantern-keeper-2026-12-09-1430-orders.csv"), so a matinee's and an evening's differ. Only
 * letters, digits and hyphens, so it needs no quoting in Content-Disposition and is a safe name
 * on every file system.
 */
export function ordersCsvFileName(performance: Pick<ReportedPerformance, "showSlug" | "startsAt" | "timeZone">) {
  const parts = Object.fromEntries(
    dateTimeFormat("en-GB", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: performance.timeZone,
    })
      .formatToParts(new Date(performance.startsAt))
      .map((part) => [part.type, part.value]),
  );
  const show =
    performance.showSlug
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "performance";
  return `${show}-${parts.year}-${parts.month}-${parts.day}-${parts.hour}${parts.minute}-orders.csv`;
}
