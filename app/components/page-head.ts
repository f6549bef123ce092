import type { MetaDescriptor } from "@remix-run/react";

/**
 * A public page's `meta`: the description, canonical link and language alternates its loader
 * worked out on the server (app/web/page-head.server.ts) as `head`. Only this much is in the
 * page's script; none of it in the root's.
 */
export const headTags = ({ data }: { data?: unknown }): MetaDescriptor[] =>
  (data as { head?: MetaDescriptor[] } | undefined)?.head ?? [];
