import { knownOf } from "./access-services";

/**
 * What a show may warn of (issue 43 item 4): schema.org's `accessibilityHazard` values for a
 * performance, as the catalogue names them and the structured data says them. Each hazard has its
 * "no…Hazard" opposite, for a show that says it has none; a show cannot say both. Worded in the
 * locale files under `hazard.*`. A view, so components share the one list with the catalogue.
 */
export const ACCESS_HAZARDS = [
  "flashing",
  "noFlashingHazard",
  "motionSimulation",
  "noMotionSimulationHazard",
  "sound",
  "noSoundHazard",
] as const;
export type AccessHazard = (typeof ACCESS_HAZARDS)[number];

export const isAccessHazard = (value: string): value is AccessHazard =>
  (ACCESS_HAZARDS as readonly string[]).includes(value);

/** The hazard a "no…Hazard" value denies, and the other way round: the two a show cannot both say. */
export function oppositeHazard(hazard: AccessHazard): AccessHazard {
  const index = ACCESS_HAZARDS.indexOf(hazard);
  return ACCESS_HAZARDS[index % 2 === 0 ? index + 1 : index - 1]!;
}

/** A show's stored hazards ("flashing,noSoundHazard"), known ones only, in the set's order. */
export const accessHazardsOf = (stored: string | null | undefined): AccessHazard[] => knownOf(ACCESS_HAZARDS, stored);
