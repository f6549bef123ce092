import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { LEGAL_DOCUMENTS } from "~/legal";
import { parseParams } from "~/routing/params";

export const handle = {
  titleKey: (data: { document?: string } | undefined) => (data?.document ? `legal.${data.document}.title` : ""),
};

export function loader({ params }: LoaderFunctionArgs) {
  return parseParams(params, { document: z.enum(LEGAL_DOCUMENTS) });
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
