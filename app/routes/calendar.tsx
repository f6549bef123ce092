import type { LoaderFunctionArgs } from "@remix-run/node";
import { EmptyStatePage } from "~/components/empty-state-page";
import { isoDate, parseParams } from "~/routing/params";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "calendar.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  const show = showFromParams(params, context);
  const { date } = parseParams(params, { date: isoDate.optional() });
  return { ...show, date: date ?? null };
}

export default function Calendar() {
  return <EmptyStatePage titleKey="calendar.title" messageKey="calendar.empty" />;
}
