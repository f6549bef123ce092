// A performance as the staff's pages list it to choose from (issue 55: the door, house seats and
// comps), as the web layer reads it and the pages render it.

export interface ListedPerformance {
  id: string;
  startsAt: string;
  timeZone: string;
  show: string;
  venue: string;
}
