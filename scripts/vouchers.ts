// `npm run vouchers -- locked` (`vouchers locked` in the container): the card numbers locked out by
// wrong redemption codes (decision 0054), masked but for their last four characters, with their
// wrong codes, until when, and whether a voucher or gift card has that number.
// `npm run vouchers -- unlock NUMBER`: lifts a number's lock and forgets its wrong codes, for a
// holder who has shown the box office their card. Exit codes: 0 done (or nothing to do), 1 failed,
// 2 bad usage. It needs only the database's settings (DATABASE_URL or DATA_DIR), as `migrate` does.
import { systemClock } from "~/clock";
import { ConfigError, loadStoreConfig } from "~/config/env.server";
import { openCommandStore } from "~/db/command-store.server";
import { createVouchers, maskVoucherNumber, normaliseVoucherInput } from "~/ticketing/vouchers.server";

const USAGE = "Usage: npm run vouchers -- locked | unlock NUMBER";

const [command, ...rest] = process.argv.slice(2);
if (command === "--help" || command === "-h") {
  console.log(USAGE);
  process.exit(0);
}
if (!((command === "locked" && rest.length === 0) || (command === "unlock" && rest.length === 1 && rest[0]))) {
  console.error(USAGE);
  process.exit(2);
}

/** "2027-01-06 12:00 UTC": the lock's end, to the minute. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

let code = 1;
try {
  const { store } = await openCommandStore(loadStoreConfig());
  try {
    const vouchers = createVouchers(store, systemClock);
    if (command === "locked") {
      const locked = await vouchers.lockedNumbers();
      if (locked.length === 0) console.log("No card number is locked.");
      else console.log(`Locked card numbers (${locked.length}), soonest lifted first:`);
      for (const entry of locked)
        console.log(
          `  ${maskVoucherNumber(entry.number)}  ${entry.issued ? "issued" : "no such card"}  ${entry.failures} wrong codes  locked until ${when(entry.lockedUntil)}`,
        );
    } else {
      const number = rest[0]!;
      const forgotten = await vouchers.unlockNumber(number);
      const masked = maskVoucherNumber(normaliseVoucherInput(number));
      console.log(
        forgotten > 0
          ? `Unlocked ${masked}: its ${forgotten} wrong codes are forgotten.`
          : `${masked} had no wrong codes: nothing to lift.`,
      );
    }
    code = 0;
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
}
process.exit(code);
