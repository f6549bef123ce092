import { join } from "node:path";
import type { Logger } from "pino";
import { systemClock, type Clock } from "~/clock";
import type { Config } from "~/config/env.server";
import type { AppServices } from "~/context";
import { createLogTracker } from "~/experiments/tracker.server";
import { createI18nService, readLocaleFiles } from "~/i18n/i18n.server";
import { createSessionService } from "~/session/session.server";

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** The project's root folder (locales/ is read from it). */
  root: string;
  clock?: Clock;
}

/** Builds everything a request needs, once: the server does this at start-up, tests per suite. */
export function createAppServices({ config, logger, root, clock = systemClock }: ServiceOptions): AppServices {
  const sessions = createSessionService(config);
  const i18n = createI18nService(readLocaleFiles(join(root, "locales")), config.language, sessions.languageCookie);
  return {
    config,
    i18n,
    sessions,
    tracker: createLogTracker(logger),
    clock,
    ready: async () => true,
    close: async () => {},
  };
}
