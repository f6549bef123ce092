import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowList } from "~/components/show-list";
import { showListFor } from "~/routing/show-links.server";

export const handle = { titleKey: "home.title" };

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = context;
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
