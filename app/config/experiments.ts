import { z } from "zod";

// Experiments are declared in configuration (EXPERIMENTS, a JSON array). A visitor's variation is
// a stable hash of the visitor id and the experiment id, so it never changes between requests or
// servers; `force-opty=experiment:variation` overrides it for QA and for links in campaigns.
export const experimentsSchema = z
  .array(
    z.object({
      id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      variations: z
        .array(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), weight: z.number().int().min(0) }))
        .min(1)
        .refine((variations) => variations.some((variation) => variation.weight > 0), {
          message: "at least one variation needs a weight above 0",
        }),
    }),
  )
  .refine((experiments) => new Set(experiments.map((experiment) => experiment.id)).size === experiments.length, {
    message: "experiment ids must be unique",
  });

export type Experiment = z.infer<typeof experimentsSchema>[number];
export type ForcedVariations = Record<string, string>;

/** FNV-1a, 32 bits: small, stable across platforms, and well spread for short strings. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function assignVariation(experiment: Experiment, visitorId: string, forced: ForcedVariations = {}): string {
  const forcedId = forced[experiment.id];
  if (forcedId && experiment.variations.some((variation) => variation.id === forcedId)) return forcedId;
  const total = experiment.variations.reduce((sum, variation) => sum + variation.weight, 0);
  let bucket = hash32(`${experiment.id}:${visitorId}`) % total;
  for (const variation of experiment.variations) {
    if (bucket < variation.weight) return variation.id;
    bucket -= variation.weight;
  }
  // Unreachable while weights sum to `total`; keeps the return type honest.
  return experiment.variations[0]!.id;
}

/** Reads repeatable `force-opty=experiment:variation` values; malformed ones are ignored. */
export function parseForcedVariations(values: string[]): ForcedVariations {
  const forced: ForcedVariations = {};
  for (const value of values) {
    const match = /^([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]{1,64})$/.exec(value.trim());
    if (match) forced[match[1]!] = match[2]!;
  }
  return forced;
}
