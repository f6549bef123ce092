// Debian's Chromium, which the browser tests and the screenshot script launch (there is no
// browser download on these machines), with the flags it needs to run headless in a container.
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export const SYSTEM_CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
