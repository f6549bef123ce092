import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
// Zod stays out of this module (its schema is in routing/params): a route module that imports it
// makes every visit to the page preload it, 14 KB the page never runs.
import { legalParams, parseParams } from "~/urls/params";

export const handle = {
  titleKey: (data: { document?: string } | undefined) => (data?.document ? `legal.${data.document}.title` : ""),
  keptPage: true,
};

export function loader({ params }: LoaderFunctionArgs) {
  return parseParams(params, legalParams);
}

export default function Legal() {
  const { t } = useTranslation();
  const { document } = useLoaderData<typeof loader>();
  const paragraphs = t(`legal.${document}.body`, { returnObjects: true }) as string[];
  return (
    <article className="legal">
      <h1>{t(`legal.${document}.title`)}</h1>
      {paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </article>
  );
}
