// The shows list as the home, venue and show pages give it to the component.

export interface ShowListItem {
  slug: string;
  name: string;
  ageGuidance: string;
  runs: {
    href: string;
    venueName: string;
    city: string;
    timeZone: string;
    firstPerformance: string;
    lastPerformance: string;
  }[];
}
