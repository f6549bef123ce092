import { ConfigError, loadConfig } from "~/config/env.server";

/** What loading this environment refuses, one line a variable (none when it loads). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
