// @vitest-environment jsdom
import { Form, useFetcher } from "@remix-run/react";
import { createRemixStub } from "@remix-run/testing";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, expect, it } from "vitest";
import { useSeatSubmissions } from "~/components/use-seat-submissions";

// The seat map sends the whole choice as the buyer ticks. The server applies each submission as
// the buyer's choice, so two at once can land in either order and the older, last, undoes the
// newer: a quick second tick was lost. This page is the seat map's form in miniature, over a
// stub server that holds each submission open until the test lets it answer.

interface Call {
  seats: string[];
  answer: () => void;
}

function stubServer() {
  const calls: Call[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let held: string[] = [];
  const action = async ({ request }: { request: Request }) => {
    const seats = (await request.formData()).getAll("seat").map(String);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise<void>((resolve) => calls.push({ seats, answer: resolve }));
    inFlight -= 1;
    held = seats;
    return { held };
  };
  return { action, calls, held: () => held, mostInFlight: () => mostInFlight };
}

function SeatsPage() {
  const fetcher = useFetcher();
  const form = useRef<HTMLFormElement>(null);
  const seats = useSeatSubmissions(fetcher, form, () => undefined);
  return (
    <Form method="post" ref={form}>
      {[1, 2, 3].map((id) => (
        <label key={id}>
          <input
            type="checkbox"
            name="seat"
            value={id}
            onChange={(event) => seats.toggle(id, { checked: event.target.checked, sponsored: false })}
          />
          Seat {id}
        </label>
      ))}
    </Form>
  );
}

afterEach(cleanup);

function renderPage() {
  const server = stubServer();
  const Stub = createRemixStub([{ path: "/", Component: SeatsPage, action: server.action, loader: () => null }]);
  render(<Stub />);
  return server;
}

it("sends a tick made while another is on its way after that one has answered, with both seats", async () => {
  const server = renderPage();
  fireEvent.click(await screen.findByRole("checkbox", { name: "Seat 1" }));
  await waitFor(() => expect(server.calls).toHaveLength(1));
  fireEvent.click(screen.getByRole("checkbox", { name: "Seat 2" }));
  fireEvent.click(screen.getByRole("checkbox", { name: "Seat 3" }));
  // Nothing more is sent while the first is on its way.
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(server.calls).toHaveLength(1);
  expect(server.calls[0]!.seats).toEqual(["1"]);

  await act(async () => server.calls[0]!.answer());
  await waitFor(() => expect(server.calls).toHaveLength(2));
  expect(server.calls[1]!.seats).toEqual(["1", "2", "3"]);
  await act(async () => server.calls[1]!.answer());
  await waitFor(() => expect(server.held()).toEqual(["1", "2", "3"]));
  expect(server.mostInFlight()).toBe(1);
});

it("keeps an untick made while a tick is on its way", async () => {
  const server = renderPage();
  fireEvent.click(await screen.findByRole("checkbox", { name: "Seat 1" }));
  await waitFor(() => expect(server.calls).toHaveLength(1));
  fireEvent.click(screen.getByRole("checkbox", { name: "Seat 2" }));
  fireEvent.click(screen.getByRole("checkbox", { name: "Seat 1" }));
  await act(async () => server.calls[0]!.answer());
  await waitFor(() => expect(server.calls).toHaveLength(2));
  expect(server.calls[1]!.seats).toEqual(["2"]);
  await act(async () => server.calls[1]!.answer());
  await waitFor(() => expect(server.held()).toEqual(["2"]));
});
