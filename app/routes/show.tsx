import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyStatePage } from "~/components/empty-state-page";
import { useTranslation } from "react-i18next";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "show.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  return showFromParams(params, context);
}

export default function Show() {
  const { t } = useTranslation();
  return (
    <>
      <EmptyStatePage titleKey="show.title" messageKey="show.empty" />
      <p>
        <Link to="calendar" relative="path">
          {t("show.calendarLink")}
        </Link>
      </p>
    </>
  );
}
