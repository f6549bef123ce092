import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { isoDate, parseParams } from "~/routing/params";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "calendar.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  const show = showFromParams(params, context);
  const { date } = parseParams(params, { date: isoDate.optional() });
  return { ...show, date: date ?? null };
}

export default function Calendar() {
  const { t } = useTranslation();
  useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("calendar.title")}</h1>
      <p className="empty-state">{t("calendar.empty")}</p>
    </>
  );
}
