import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "show.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  return showFromParams(params, context);
}

export default function Show() {
  const { t } = useTranslation();
  useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("show.title")}</h1>
      <p className="empty-state">{t("show.empty")}</p>
      <p>
        <Link to="calendar" relative="path">
          {t("show.calendarLink")}
        </Link>
      </p>
    </>
  );
}
