import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseParams, performanceId } from "~/routing/params";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "tickets.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  const show = showFromParams(params, context);
  const { performanceId: id } = parseParams(params, { performanceId });
  return { ...show, performanceId: id };
}

export default function Tickets() {
  const { t } = useTranslation();
  useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("tickets.title")}</h1>
      <p className="empty-state">{t("tickets.empty")}</p>
    </>
  );
}
