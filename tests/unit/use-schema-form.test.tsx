// @vitest-environment jsdom
import { getFormProps, getInputProps } from "@conform-to/react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useSchemaForm } from "~/components/use-schema-form";

// The form checks arrive with import() (issue 16 item 8): a submit before they have arrived is
// held, then checked and sent once they have; nothing leaves unchecked, and nothing is lost.

afterEach(cleanup);

function ForgottenPassword({
  onSent,
  hook = useSchemaForm,
}: {
  onSent: (data: FormData) => void;
  hook?: typeof useSchemaForm;
}) {
  const [form, fields] = hook((checks) => checks.forgottenPasswordSchema, undefined);
  return (
    <form
      {...getFormProps(form)}
      onSubmit={(event) => {
        form.onSubmit(event);
        if (event.defaultPrevented) return;
        event.preventDefault();
        onSent(new FormData(event.currentTarget));
      }}
    >
      <label htmlFor={fields.email.id}>Email</label>
      <input {...getInputProps(fields.email, { type: "email" })} />
      <p>{fields.email.errors?.join(" ") ?? "no errors"}</p>
      <button type="submit">Send</button>
    </form>
  );
}

describe("useSchemaForm", () => {
  it("holds a submit made before the checks arrive, then shows their error and sends nothing", async () => {
    const onSent = vi.fn();
    render(<ForgottenPassword onSent={onSent} />);
    // No focus first: the button is pressed at once, before anything has fetched the checks.
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSent).not.toHaveBeenCalled();
    expect(await screen.findByText("validation.email")).toBeTruthy();
    expect(onSent).not.toHaveBeenCalled();
  });

  it("sends a held submit that passes once, after the checks have arrived", async () => {
    const onSent = vi.fn();
    render(<ForgottenPassword onSent={onSent} />);
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "jo@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSent).not.toHaveBeenCalled();
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(onSent.mock.calls[0]![0].get("email")).toBe("jo@example.com");
  });

  it("sends the form to the server, which checks it, when the checks cannot be fetched", async () => {
    vi.resetModules();
    vi.doMock("~/forms/checks", () => {
      throw new Error("offline");
    });
    const { useSchemaForm: offlineHook } = await import("~/components/use-schema-form");
    const onSent = vi.fn();
    render(<ForgottenPassword onSent={onSent} hook={offlineHook} />);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSent).not.toHaveBeenCalled();
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    vi.doUnmock("~/forms/checks");
  });

  it("answers a field read after the form's state has changed with the new state (patches/@conform-to+react)", async () => {
    // The patch makes a field's metadata once per form state: a field kept from an earlier render
    // and read later must still see the state as it is then, as Conform's own reads did.
    const held: { email?: { errors?: string[]; id: string } } = {};
    function Holder() {
      const [form, fields] = useSchemaForm((checks) => checks.forgottenPasswordSchema, undefined);
      held.email ??= fields.email;
      return (
        <form {...getFormProps(form)} onSubmit={form.onSubmit}>
          <label htmlFor={fields.email.id}>Email</label>
          <input {...getInputProps(fields.email, { type: "email" })} />
          <p>{fields.email.errors?.join(" ") ?? "no errors"}</p>
          <button type="submit">Send</button>
        </form>
      );
    }
    render(<Holder />);
    const first = held.email!;
    expect(first.errors).toBeUndefined();
    expect(first.id).toBe(screen.getByLabelText("Email").id);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("validation.email")).toBeTruthy();
    expect(first.errors).toEqual(["validation.email"]);
  });
});
