import { afterEach, beforeEach, vi } from "vitest";

// Any console.error during a test fails it: an error a test did not expect is a bug it missed.
let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  if (errors.length > 0) {
    const first = errors[0]!.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(" ");
    throw new Error(`console.error was called ${errors.length} time(s); first: ${first}`);
  }
});
