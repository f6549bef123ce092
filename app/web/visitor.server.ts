import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { parseForcedVariations } from "~/config/experiments";
import type { Attribution, BuyerSession } from "~/web/session.server";
import { isThemeName, type ThemeName } from "~/themes/themes";

const ATTRIBUTION_KEYS = ["crmCampaignId", "crmUserId", "crmEmail", "src", "cfg"] as const;
const MAX_PARAM_LENGTH = 256;

/**
 * Reads the query parameters spec section 2 lists on every page load and keeps them in the
 * session: the CRM and source parameters for attribution, `force-opty` for experiments. Returns
 * whether the session changed and needs committing.
 */
export function captureQueryParameters(url: URL, session: BuyerSession): boolean {
  let changed = false;
  if (!session.get("visitorId")) {
    session.set("visitorId", randomUUID());
    changed = true;
  }
  const attribution: Attribution = { ...(session.get("attribution") ?? {}) };
  for (const key of ATTRIBUTION_KEYS) {
    const value = url.searchParams.get(key)?.trim();
    if (value && value.length <= MAX_PARAM_LENGTH && attribution[key] !== value) {
      attribution[key] = value;
      changed = true;
    }
  }
  if (changed) session.set("attribution", attribution);
  const forced = parseForcedVariations(url.searchParams.getAll("force-opty"));
  if (Object.keys(forced).length > 0) {
    session.set("forcedVariations", { ...(session.get("forcedVariations") ?? {}), ...forced });
    changed = true;
  }
  return changed;
}

/** `?cfg=NAME` (a known theme only) beats the buyer's remembered theme, which beats THEME. */
export async function resolveTheme(
  url: URL,
  cookieHeader: string | null,
  context: Pick<AppLoadContext, "sessions" | "config">,
): Promise<{ theme: ThemeName; remember: boolean }> {
  const requested = url.searchParams.get("cfg");
  if (isThemeName(requested)) return { theme: requested, remember: true };
  const remembered: unknown = cookieHeader ? await context.sessions.themeCookie.parse(cookieHeader) : null;
  if (isThemeName(remembered)) return { theme: remembered, remember: false };
  return { theme: context.config.theme, remember: false };
}
