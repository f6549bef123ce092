import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseParams, slug } from "~/routing/params";

export const handle = { titleKey: "venue.title" };

export function loader({ params }: LoaderFunctionArgs) {
  return parseParams(params, { venueSlug: slug });
}

export default function Venue() {
  const { t } = useTranslation();
  useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("venue.title")}</h1>
      <p className="empty-state">{t("venue.empty")}</p>
    </>
  );
}
