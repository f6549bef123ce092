import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/components/format";
import { availabilityOf } from "~/ticketing/availability.server";
import { notFound, parseParams, performanceId } from "~/routing/params";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "tickets.title" };

export async function loader({ params, context }: LoaderFunctionArgs) {
  const show = await showFromParams(params, context);
  const { performanceId: id } = parseParams(params, { performanceId });
  const performance = await context.catalogue.performanceOfRun(show.runId, id);
  if (!performance) throw notFound();
  const availability = (
    await availabilityOf(context.store, [performance.id], context.clock.now(), context.config.availabilityThresholds)
  ).get(performance.id);
  return {
    show: { name: show.name, venueName: show.venueName, timeZone: show.timeZone },
    performance: {
      startsAt: performance.startsAt,
      seatLimit: performance.seatLimit,
      left: availability?.left ?? 0,
      level: availability?.level ?? "soldOut",
    },
  };
}

export default function Tickets() {
  const { t, i18n } = useTranslation();
  const { show, performance } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("tickets.title")}</h1>
      <p>
        {show.name}, {show.venueName}: {formatDateTime(performance.startsAt, show.timeZone, i18n.language)}
      </p>
      <p>
        {t(`availability.${performance.level}`)}. {t("tickets.left", { count: performance.left })}
      </p>
      <p className="empty-state">{t("tickets.notYetOnline", { phone: t("venue.supportPhone") })}</p>
    </>
  );
}
