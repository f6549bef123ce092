import type { LoaderFunctionArgs } from "@remix-run/node";
import { EmptyStatePage } from "~/components/empty-state-page";
import { parseParams, slug } from "~/routing/params";

export const handle = { titleKey: "venue.title" };

export function loader({ params }: LoaderFunctionArgs) {
  return parseParams(params, { venueSlug: slug });
}

export default function Venue() {
  return <EmptyStatePage titleKey="venue.title" messageKey="venue.empty" />;
}
