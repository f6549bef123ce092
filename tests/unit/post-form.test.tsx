// @vitest-environment jsdom
import { createRemixStub } from "@remix-run/testing";
import { render, screen } from "@testing-library/react";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { expect, it } from "vitest";
import { PostForm } from "~/components/post-form";

it("a PostForm posts, skips browser validation and carries the buyer's CSRF token", async () => {
  const Stub = createRemixStub([
    {
      path: "/",
      Component: () => (
        <AuthenticityTokenProvider token="token-123">
          <PostForm aria-label="Apply code">
            <button type="submit">Apply</button>
          </PostForm>
        </AuthenticityTokenProvider>
      ),
    },
  ]);
  render(<Stub />);
  const form = await screen.findByRole("form", { name: "Apply code" });
  expect(form.getAttribute("method")).toBe("post");
  expect(form.hasAttribute("novalidate")).toBe(true);
  const token = form.querySelector<HTMLInputElement>('input[type="hidden"][name="csrf"]');
  expect(token?.value).toBe("token-123");
});
