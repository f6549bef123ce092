import { EmptyStatePage } from "~/components/empty-state-page";

export const handle = { titleKey: "membership.title" };

export default function Membership() {
  return <EmptyStatePage titleKey="membership.title" messageKey="membership.empty" />;
}
