import { notFound } from "~/urls/params";

// Every URL no other route answers. A loader (rather than Remix's own no-match) so the root
// loader still runs and the not-found page keeps the buyer's language and theme.
export function loader(): never {
  throw notFound();
}

export default function NotFound() {
  return null;
}
