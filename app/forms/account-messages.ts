import type { Clock } from "~/clock";
import { message } from "~/forms/checkout/messages";

/** "Too many attempts…", with the wait rounded up to whole minutes (at least one). */
export function throttledMessage(retryAt: string, clock: Clock): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(retryAt) - clock.now().getTime()) / 60_000));
  return message("account.throttled", { count: minutes });
}
