import type { AppLoadContext } from "@remix-run/node";
import type { BuyerSession } from "~/session/session.server";
import { assignVariation } from "./experiments";

/**
 * The variation of a configured experiment this visitor sees, recording the exposure as a tracked
 * event. Returns null for an experiment that is not configured (a page must then show its
 * control), so removing an experiment from config never breaks a page.
 */
export function experimentVariation(
  context: AppLoadContext,
  session: BuyerSession,
  experimentId: string,
): string | null {
  const experiment = context.config.experiments.find((candidate) => candidate.id === experimentId);
  const visitorId = session.get("visitorId");
  if (!experiment || !visitorId) return null;
  const variation = assignVariation(experiment, visitorId, session.get("forcedVariations") ?? {});
  context.tracker.track(
    { name: "experiment exposure", visitorId, properties: { experimentId, variation } },
    context.logger,
  );
  return variation;
}
