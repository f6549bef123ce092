import { useEffect, useRef, type RefObject } from "react";
import type { FetcherWithComponents } from "@remix-run/react";

/** A tick or untick the buyer made on the seat map. */
export interface SeatChange {
  checked: boolean;
  /** A sponsored-partner seat (the server asks for the card when one is chosen). */
  sponsored: boolean;
}

/**
 * Sends the seat map's form as the buyer ticks, one submission at a time. A second submission
 * made while one is on its way would cancel the first in the browser but not on the server, which
 * could then apply the two in either order (each sends the whole choice, so the older one, last,
 * undoes the newer), and the first one's answer would never reach the page: a seat ticked 0.2 s
 * after another was lost. Ticks made meanwhile wait, and go together, with the form as it then
 * is, as soon as the submission on its way has settled.
 *
 * `waiting` is what the buyer has ticked and the server has not yet been sent: the seat map keeps
 * showing those boxes as the buyer left them. `onSettled` runs when a submission has settled and
 * nothing waits (the page puts the boxes back as the server has them, after a refusal).
 */
export function useSeatSubmissions(
  fetcher: Pick<FetcherWithComponents<unknown>, "state" | "submit">,
  form: RefObject<HTMLFormElement>,
  onSettled: () => void,
) {
  const waiting = useRef(new Map<number, SeatChange>());
  // Set when a submission is made, cleared when the fetcher has been seen busy and then idle: the
  // fetcher's own state still reads "idle" until the page renders again after a submit.
  const busy = useRef(false);
  const seenBusy = useRef(false);
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;

  const send = (changes: ReadonlyMap<number, SeatChange>) => {
    if (!form.current) return;
    const formData = new FormData(form.current);
    const seats = new Set(formData.getAll("seat").map(String));
    for (const [seatId, change] of changes) {
      if (change.checked) seats.add(String(seatId));
      else seats.delete(String(seatId));
      if (change.checked && change.sponsored) formData.append("sponsored", String(seatId));
    }
    formData.delete("seat");
    for (const seat of seats) formData.append("seat", seat);
    busy.current = true;
    seenBusy.current = false;
    fetcher.submit(formData, { method: "post" });
  };

  useEffect(() => {
    if (fetcher.state !== "idle") {
      seenBusy.current = true;
      return;
    }
    if (!busy.current || !seenBusy.current) return;
    busy.current = false;
    if (waiting.current.size > 0) {
      const changes = new Map(waiting.current);
      waiting.current.clear();
      send(changes);
      return;
    }
    onSettledRef.current();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- send reads the form as it is now
  }, [fetcher.state]);

  const toggle = (seatId: number, change: SeatChange) => {
    if (busy.current) waiting.current.set(seatId, change);
    else send(new Map([[seatId, change]]));
  };

  return { toggle, waiting };
}
