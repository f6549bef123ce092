import type { MetaDescriptor } from "@remix-run/react";
import type { ShareCard } from "~/views/share-card";

/**
 * The Open Graph and Twitter tags of a page, for its route's `meta` export. In the route, not the
 * root: only the show and tickets pages have a card, and the root's script is on every page,
 * the payment page's 120 KB budget included.
 */
export function shareTags(card: ShareCard | undefined): MetaDescriptor[] {
  if (!card) return [];
  const image = card.image
    ? [
        { property: "og:image", content: card.image },
        { name: "twitter:image", content: card.image },
      ]
    : [];
  return [
    { property: "og:title", content: card.title },
    { property: "og:type", content: card.type },
    { property: "og:url", content: card.url },
    { property: "og:description", content: card.description },
    { property: "og:site_name", content: card.siteName },
    { name: "twitter:card", content: card.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: card.title },
    { name: "twitter:description", content: card.description },
    ...image,
  ];
}
