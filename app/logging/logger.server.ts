import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

// Paths a log line must never carry: credentials, card data and personal details. Emails are
// masked rather than dropped so support can still match a line to a buyer.
const REDACT = [
  "req.headers.cookie",
  "req.headers.authorization",
  "res.headers['set-cookie']",
  "*.password",
  "*.cardNumber",
  "*.cvv",
  "*.sessionSecrets",
  "*.crmEmail",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** "jane.doe@example.com" → "j***@example.com": enough to recognise, not enough to contact. */
export function maskEmail(email: string): string {
  const at = email.indexOf("@");
  if (at < 1) return "[redacted]";
  return `${email[0]}***${email.slice(at)}`;
}
