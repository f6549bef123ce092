import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";

// What a browser without script sends, worked out from a page's HTML (read from stdin), for
// scripts/text-browser-dumps.sh: curl does the HTTP, this reads the page as a browser would, so
// the shell script posts exactly the fields a form has (its hidden CSRF token, defaults and the
// pressed button) rather than a hand-kept list that drifts from the pages.
//
//   link TEXT...                     the href of the first link whose text has every TEXT
//   form BUTTON [CHANGE...]          the urlencoded body of the form whose submit button reads
//                                    BUTTON, as submitted with that button, after each CHANGE:
//                                      name=value  type into a field / pick that option, or tick
//                                                  the checkbox or radio of that name and value
//                                      @LABEL      tick the checkbox or radio whose label starts
//                                                  with LABEL
//
// Anything it cannot find is an error (exit 1), so a page that changed stops the script loudly.

const [command, ...args] = process.argv.slice(2);
const document = new JSDOM(readFileSync(0, "utf8")).window.document;
const text = (element: Element) => (element.textContent ?? "").replace(/\s+/g, " ").trim();

function fail(message: string): never {
  process.stderr.write(`no-script-form: ${message}\n`);
  process.exit(1);
}

if (command === "link") {
  const link = [...document.querySelectorAll("a[href]")].find((anchor) =>
    args.every((part) => text(anchor).includes(part)),
  );
  if (!link) fail(`no link with ${JSON.stringify(args)}`);
  process.stdout.write(`${link.getAttribute("href")}\n`);
} else if (command === "form") {
  const [buttonText, ...changes] = args;
  const button = [...document.querySelectorAll<HTMLButtonElement>("button, input[type=submit]")].find(
    (candidate) => candidate.type === "submit" && (text(candidate) || candidate.value) === buttonText,
  );
  if (!button?.form) fail(`no form with a button ${JSON.stringify(buttonText)}`);
  const form = button.form;
  // Fieldsets, outputs and buttons are in form.elements too; only these three carry values.
  const controls = [...form.elements].filter((element) => /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName)) as (
    | HTMLInputElement
    | HTMLSelectElement
    | HTMLTextAreaElement
  )[];
  const tick = (input: HTMLInputElement) => {
    // Ticking a radio button unticks the others of its group, as the browser does.
    if (input.type === "radio")
      for (const other of controls) if (other.name === input.name) (other as HTMLInputElement).checked = false;
    input.checked = true;
  };
  for (const change of changes) {
    if (change.startsWith("@")) {
      const wanted = change.slice(1);
      const box = controls.find(
        (control): control is HTMLInputElement =>
          control instanceof document.defaultView!.HTMLInputElement &&
          /^(checkbox|radio)$/.test(control.type) &&
          [...(control.labels ?? [])].some((label) => text(label).startsWith(wanted)),
      );
      if (!box) fail(`no checkbox or radio labelled ${JSON.stringify(wanted)}`);
      tick(box);
      continue;
    }
    const [name, value = ""] = change.split(/=(.*)/s) as [string, string?];
    const named = controls.filter((control) => control.name === name);
    const box = named.find(
      (control): control is HTMLInputElement =>
        /^(checkbox|radio)$/.test(control.type) && (control as HTMLInputElement).value === value,
    );
    if (box) tick(box);
    else if (named[0] && !/^(checkbox|radio)$/.test(named[0].type)) named[0].value = value;
    else fail(`no field ${JSON.stringify(name)} that takes ${JSON.stringify(value)}`);
  }
  // The form data set of the HTML standard: enabled, named controls; checkboxes and radios only
  // when ticked; of the buttons, only the one pressed.
  const body = new URLSearchParams();
  for (const control of controls) {
    if (!control.name || control.disabled) continue;
    if (control instanceof document.defaultView!.HTMLInputElement) {
      if (/^(submit|button|reset|image|file)$/.test(control.type)) continue;
      if (/^(checkbox|radio)$/.test(control.type) && !control.checked) continue;
    }
    body.append(control.name, control.value);
  }
  if (button.name) body.append(button.name, button.value);
  process.stdout.write(`${body.toString()}\n`);
} else {
  fail("usage: no-script-form.ts link TEXT... | form BUTTON [name=value | @LABEL]...");
}
