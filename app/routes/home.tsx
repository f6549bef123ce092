import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowList } from "~/components/show-list";
import { showPath } from "~/urls/paths";
import { showListFor } from "~/use-cases/show-list.server";

export const handle = { titleKey: "home.title", keptPage: true };

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = context;
  // A single-venue site configured with a show (TITLE_SLUG) opens on that show.
  if (config.routingType === "SINGLE_VENUE" && config.titleSlug && config.venueSlug) {
    throw redirect(showPath(config.routingType, config.titleSlug, config.venueSlug));
  }
  return { shows: await showListFor(context, config.routingType === "SINGLE_VENUE" ? config.venueSlug : undefined) };
}

export default function Home() {
  const { t } = useTranslation();
  const { shows } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("home.title")}</h1>
      <ShowList shows={shows} />
    </>
  );
}
