import { EmptyStatePage } from "~/components/empty-state-page";

// The shows list. The catalogue arrives with the ticketing engine; until then the honest answer
// is that nothing is on sale.
export const handle = { titleKey: "home.title" };

export default function Home() {
  return <EmptyStatePage titleKey="home.title" messageKey="home.empty" />;
}
