import type { LoaderFunctionArgs } from "@remix-run/node";
import { EmptyStatePage } from "~/components/empty-state-page";
import { parseParams, performanceId } from "~/routing/params";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "tickets.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  const show = showFromParams(params, context);
  const { performanceId: id } = parseParams(params, { performanceId });
  return { ...show, performanceId: id };
}

export default function Tickets() {
  return <EmptyStatePage titleKey="tickets.title" messageKey="tickets.empty" />;
}
