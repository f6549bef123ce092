// @vitest-environment jsdom
import { join } from "node:path";
import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createInstance, type i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cardSchema, message } from "~/forms/checkout";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, RadioGroup, SelectInput, TextField } from "~/components/form-fields";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { sharedI18nextOptions } from "~/i18n/languages";

const files = readLocaleFiles(join(process.cwd(), "locales"));
let i18n: I18n;

beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    ...sharedI18nextOptions("en-GB", "common"),
    resources: files.resources,
    initImmediate: false,
  });
});

afterEach(cleanup);

const withI18n = (children: ReactNode) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;

describe("TextField", () => {
  it("links the hint and the worded error to the input, which is marked invalid", () => {
    render(
      withI18n(
        <TextField
          field={{ name: "firstName", defaultValue: "A", errors: ["validation.firstName"] }}
          label="First name"
          hint="As on your ID"
          autoComplete="given-name"
        />,
      ),
    );
    const input = screen.getByLabelText("First name");
    expect(input.id).toBe("firstName");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe("firstName-hint firstName-error");
    expect(document.getElementById("firstName-error")?.textContent).toBe("Error: Please enter your first name");
    expect(document.querySelector("#firstName-error .visually-hidden")?.textContent).toBe("Error: ");
    expect((input as HTMLInputElement).value).toBe("A");
    expect(input.getAttribute("autocomplete")).toBe("given-name");
    // The server words every error: no browser validation to word them differently.
    expect(input.hasAttribute("required")).toBe(false);
    expect(input.hasAttribute("pattern")).toBe(false);
  });

  it("without an error: described by its hint only, not marked invalid", () => {
    render(withI18n(<TextField field={{ name: "email" }} label="Email" hint="For your tickets" type="email" />));
    const input = screen.getByLabelText("Email");
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.getAttribute("aria-describedby")).toBe("email-hint");
    expect(screen.queryByText(/Error:/)).toBeNull();
  });

  it("words an error that carries values (the accepted card brands)", () => {
    const error = message("validation.cardNumberBrands", { cardTypes: ["Visa", "Visa Debit", "Mastercard"] });
    render(withI18n(<TextField field={{ name: "cardNumber", errors: [error] }} label="Card number" />));
    expect(document.getElementById("cardNumber-error")?.textContent).toBe(
      "Error: Please enter a valid Visa, Visa Debit or Mastercard card number",
    );
  });

  it("never writes a card number or CVV back into the page, even when asked to", () => {
    render(
      withI18n(
        <>
          <TextField
            field={{ name: "cardNumber", defaultValue: "4242424242424242" }}
            label="Card number"
            autoComplete="cc-number"
            inputMode="numeric"
          />
          <TextField
            field={{ name: "cvv", defaultValue: "123" }}
            label="CVV"
            autoComplete="cc-csc"
            inputMode="numeric"
          />
          <TextField field={{ name: "other", defaultValue: "secret" }} label="Other" keepValue={false} />
        </>,
      ),
    );
    expect((screen.getByLabelText("Card number") as HTMLInputElement).value).toBe("");
    expect(screen.getByLabelText("Card number").getAttribute("inputmode")).toBe("numeric");
    expect((screen.getByLabelText("CVV") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("Other") as HTMLInputElement).value).toBe("");
  });
});

describe("RadioGroup", () => {
  const options = [
    { value: "yes", label: "Yes, please protect my tickets", hint: "Refund if you can't go" },
    { value: "no", label: "No, I accept that my tickets are non-refundable" },
  ];

  it("is a group named by its legend, its error describing the group, the buyer's answer kept", () => {
    render(
      withI18n(
        <RadioGroup
          field={{ name: "protection", defaultValue: "no", errors: ["validation.answerSelect"] }}
          legend="Would you like to protect your tickets?"
          options={options}
        />,
      ),
    );
    const group = screen.getByRole("group", { name: "Would you like to protect your tickets?" });
    expect(group.getAttribute("aria-describedby")).toBe("protection-error");
    expect(document.getElementById("protection-error")?.textContent).toBe("Error: Please select an answer");
    const radios = within(group).getAllByRole("radio") as HTMLInputElement[];
    expect(radios.map((radio) => [radio.name, radio.value, radio.checked])).toEqual([
      ["protection", "yes", false],
      ["protection", "no", true],
    ]);
    // The error summary links to the field's name: the first radio must answer to it.
    expect(radios[0]!.id).toBe("protection");
    expect(screen.getByLabelText("Yes, please protect my tickets").getAttribute("aria-describedby")).toBe(
      "protection-hint",
    );
    expect(document.getElementById("protection-hint")?.textContent).toBe("Refund if you can't go");
  });

  it("can be named by the page's heading instead of a legend, so the question is read once", () => {
    render(
      withI18n(
        <>
          <h2 id="pay-title">How would you like to pay?</h2>
          <RadioGroup field={{ name: "method" }} labelledBy="pay-title" options={options} />
        </>,
      ),
    );
    const group = screen.getByRole("group", { name: "How would you like to pay?" });
    expect(group.querySelector("legend")).toBeNull();
    expect(group.hasAttribute("aria-describedby")).toBe(false);
    expect(document.body.textContent?.match(/How would you like to pay\?/g)).toHaveLength(1);
  });
});

describe("CheckboxField and SelectInput", () => {
  it("a checkbox sends 'on', shows its error and keeps its tick", () => {
    render(
      withI18n(
        <CheckboxField
          field={{ name: "termsAccepted", defaultValue: "on", errors: ["validation.terms"] }}
          label="I accept the Terms and Conditions"
        />,
      ),
    );
    const box = screen.getByLabelText("I accept the Terms and Conditions") as HTMLInputElement;
    expect(box.value).toBe("on");
    expect(box.checked).toBe(true);
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(box.getAttribute("aria-describedby")).toBe("termsAccepted-error");
    expect(document.getElementById("termsAccepted-error")?.textContent).toBe(
      "Error: Please accept the Terms and Conditions",
    );
  });

  it("a select shows its error and the buyer's choice", () => {
    render(
      withI18n(
        <SelectInput
          field={{ name: "state", defaultValue: "NY", errors: ["validation.state"] }}
          label="State"
          placeholder="Choose a state"
          options={[
            { value: "NJ", label: "New Jersey" },
            { value: "NY", label: "New York" },
          ]}
          autoComplete="address-level1"
        />,
      ),
    );
    const select = screen.getByLabelText("State") as HTMLSelectElement;
    expect(select.value).toBe("NY");
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(select.getAttribute("aria-describedby")).toBe("state-error");
    expect(select.getAttribute("autocomplete")).toBe("address-level1");
    expect(document.getElementById("state-error")?.textContent).toBe("Error: Please select your state");
  });
});

describe("a no-script round trip through Conform", () => {
  // The page as the server renders it after a failed POST: Conform's reply is all it has.
  function PayForm({ lastResult }: { lastResult: SubmissionResult<string[]> }) {
    const [form, fields] = useForm<{ cardNumber: string; cardOwner: string; expiry: string; cvv: string }>({
      lastResult,
    });
    return (
      <form id={form.id} method="post" noValidate>
        <TextField field={fields.cardNumber} label="Card number" autoComplete="cc-number" inputMode="numeric" />
        <TextField field={fields.cardOwner} label="Name on card" autoComplete="cc-name" />
        <TextField field={fields.expiry} label="Expiry date" autoComplete="cc-exp" />
        <TextField field={fields.cvv} label="CVV" autoComplete="cc-csc" inputMode="numeric" />
      </form>
    );
  }

  it("renders the server's errors and the buyer's text, but not the card number or CVV", () => {
    const formData = new FormData();
    formData.append("cardNumber", "4242 4242 4242 4242");
    formData.append("cardOwner", "Ada");
    formData.append("expiry", "13/29");
    formData.append("cvv", "123");
    const submission = parseWithZod(formData, {
      schema: cardSchema({ acceptedBrands: ["visa"], now: new Date("2025-06-15T12:00:00Z") }),
    });
    // A client render from the same reply: the markup the server sends (renderToString would do,
    // but Conform's layout effects warn outside a browser).
    const { container } = render(withI18n(<PayForm lastResult={submission.reply()} />));
    const html = container.innerHTML;
    const owner = screen.getByLabelText("Name on card") as HTMLInputElement;
    expect(owner.value).toBe("Ada");
    expect(owner.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Please enter your first and last name")).toBeTruthy();
    expect(screen.getByText("Please enter a valid month for your expiration date")).toBeTruthy();
    expect((screen.getByLabelText("Expiry date") as HTMLInputElement).value).toBe("13/29");
    expect(html).not.toContain("4242");
    expect((screen.getByLabelText("CVV") as HTMLInputElement).value).toBe("");
  });
});

describe("ErrorSummary", () => {
  it("takes focus and starts the title with Error: while there are errors found in the browser", () => {
    document.title = "Your details – Box Office";
    const errors = [{ field: "firstName", text: "Please enter your first name" }];
    const { rerender } = render(withI18n(<ErrorSummary errors={errors} />));
    const summary = screen.getByRole("alert");
    expect(document.activeElement).toBe(summary);
    expect(document.title).toBe("Error: Your details – Box Office");
    expect(within(summary).getByRole("link", { name: "Please enter your first name" }).getAttribute("href")).toBe(
      "#firstName",
    );
    rerender(withI18n(<ErrorSummary errors={[]} />));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.title).toBe("Your details – Box Office");
  });
});
