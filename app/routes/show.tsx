import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { calendarPath } from "~/routing/paths";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { title: (data: { show?: { name: string } } | undefined) => data?.show?.name };

export async function loader({ params, context }: LoaderFunctionArgs) {
  const show = await showFromParams(params, context);
  return {
    show: {
      name: show.name,
      description: show.description,
      ageGuidance: show.ageGuidance,
      runningTimeMinutes: show.runningTimeMinutes,
      venueName: show.venueName,
      city: show.city,
    },
    calendarHref: calendarPath(context.config.routingType, show.slug, show.venueSlug),
  };
}

export default function Show() {
  const { t } = useTranslation();
  const { show, calendarHref } = useLoaderData<typeof loader>();
  return (
    <article className="show">
      <h1>{show.name}</h1>
      <p className="show__where">{t("show.at", { venue: show.venueName, city: show.city })}</p>
      <p>{show.description}</p>
      <dl className="show__facts">
        <dt>{t("show.ageGuidanceLabel")}</dt>
        <dd>{show.ageGuidance}</dd>
        <dt>{t("show.runningTimeLabel")}</dt>
        <dd>{t("show.runningTime", { count: show.runningTimeMinutes })}</dd>
      </dl>
      <p>
        <Link to={calendarHref} className="button">
          {t("show.calendarLink")}
        </Link>
      </p>
    </article>
  );
}
