import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
// Zod stays out of this module (its schema is in routing/params): a route module that imports it
// makes every visit to the page preload it, 14 KB the page never runs.
import { legalParams, parseParams } from "~/urls/params";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

export const meta = headTags;

export const handle = {
  titleKey: (data: { document?: string } | undefined) => (data?.document ? `legal.${data.document}.title` : ""),
  keptPage: true,
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { document } = parseParams(params, legalParams);
  return {
    document,
    // The document's first paragraph says what it is.
    head: await pageHead(request, context, {
      describe: (t) => (t(`legal.${document}.body`, { returnObjects: true }) as string[])[0] ?? "",
    }),
  };
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
