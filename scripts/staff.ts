// `npm run staff -- add --email EMAIL --name NAME --role door|box-office|manager` (`staff add …` in
// the container): adds a member of the venue's staff (decision 0059). The password is read from
// STAFF_PASSWORD, or typed when asked (not shown), or from standard input's first line; never from
// the command line, where the shell's history and the process list would keep it. For box office
// and manager it prints what to put in an authenticator app (the otpauth:// address and the
// secret), once.
// `npm run staff -- remove --email EMAIL`: removes a member of staff and signs them out everywhere.
// `npm run staff -- list`: the current staff and their roles.
// Exit codes: 0 done, 1 refused (a duplicate email, a short password, no such member), 2 bad usage.
// It needs only the database's settings (DATABASE_URL or DATA_DIR), as `migrate` does.
import { parseArgs } from "node:util";
import { systemClock } from "~/clock";
import { ConfigError, loadStoreConfig } from "~/config/env.server";
import { openCommandStore } from "~/db/command-store.server";
import { STAFF_PASSWORD_MIN_LENGTH, type StaffRole } from "~/ticketing/staff-roles";
import { createStaff, type StaffAddRefusal } from "~/use-cases/staff.server";

const USAGE = `Usage: npm run staff -- add --email EMAIL --name NAME --role door|box-office|manager
       npm run staff -- remove --email EMAIL
       npm run staff -- list
The password is read from STAFF_PASSWORD, or typed when asked: never give it on the command line.`;

/** The roles as the command spells them, and as the store does. */
const ROLES: Record<string, StaffRole> = { door: "door", "box-office": "boxOffice", manager: "manager" };
const ROLE_NAMES: Record<StaffRole, string> = { door: "door", boxOffice: "box-office", manager: "manager" };

function usage(problem?: string): never {
  console.error(problem ? `${problem}\n${USAGE}` : USAGE);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (command === "--help" || command === "-h") {
  console.log(USAGE);
  process.exit(0);
}
if (rest.some((arg) => arg === "--password" || arg.startsWith("--password="))) {
  usage(
    "A password is never given on the command line (the shell's history and the process list keep it): set STAFF_PASSWORD, or type it when asked.",
  );
}
const OPTIONS: Record<"add" | "remove" | "list", readonly ("email" | "name" | "role")[]> = {
  add: ["email", "name", "role"],
  remove: ["email"],
  list: [],
};
if (command !== "add" && command !== "remove" && command !== "list")
  usage(command ? `Unknown command "${command}".` : undefined);
let values: { email?: string; name?: string; role?: string };
try {
  values = parseArgs({
    args: rest,
    options: Object.fromEntries(OPTIONS[command].map((name) => [name, { type: "string" as const }])),
  }).values as typeof values;
} catch (error) {
  usage((error as Error).message);
}
for (const name of OPTIONS[command]) if (!values[name]?.trim()) usage(`--${name} is missing.`);
let role: StaffRole | undefined;
if (command === "add") {
  role = ROLES[values.role!.trim().toLowerCase()];
  if (!role) usage(`Unknown role "${values.role}": door, box-office or manager.`);
}

/** A line typed at the terminal, not shown as it is typed. */
function askHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve) => {
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.resume();
    let typed = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          input.off("data", onData);
          input.setRawMode(false);
          input.pause();
          process.stderr.write("\n");
          resolve(typed);
          return;
        }
        if (char === "\u0003") {
          input.setRawMode(false);
          process.stderr.write("\n");
          process.exit(130);
        }
        typed = char === "\u007f" || char === "\b" ? [...typed].slice(0, -1).join("") : typed + char;
      }
    };
    input.on("data", onData);
  });
}

/** STAFF_PASSWORD; or typed twice at a terminal; or standard input's first line. */
async function readPassword(): Promise<string | null> {
  const fromEnvironment = process.env.STAFF_PASSWORD;
  if (fromEnvironment) return fromEnvironment;
  if (process.stdin.isTTY) {
    const first = await askHidden(
      `Password for ${values.email!.trim()} (at least ${STAFF_PASSWORD_MIN_LENGTH} characters): `,
    );
    const again = await askHidden("The same password again: ");
    return first === again ? first : null;
  }
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) text += chunk;
  return text.split("\n")[0]!.replace(/\r$/, "");
}

const REFUSALS: Record<StaffAddRefusal["reason"], (email: string) => string> = {
  invalidEmail: (email) => `"${email}" is not an email address.`,
  nameMissing: () => "--name is empty.",
  unknownRole: () => "Unknown role: door, box-office or manager.",
  weakPassword: () =>
    `The password is too short: at least ${STAFF_PASSWORD_MIN_LENGTH} characters (set STAFF_PASSWORD, or type it when asked).`,
  duplicateEmail: (email) =>
    `A member of staff already has the email ${email}: remove them first, or use another email.`,
};

let code = 1;
try {
  const password = command === "add" ? await readPassword() : null;
  if (command === "add" && password === null) {
    console.error("The two passwords typed differ: nothing was done.");
    process.exit(1);
  }
  const { store } = await openCommandStore(loadStoreConfig());
  try {
    const staff = createStaff(store, systemClock);
    if (command === "add") {
      const email = values.email!.trim();
      const added = await staff.add({ email, name: values.name!, role: role!, password: password! });
      if (!added.ok) {
        console.error(REFUSALS[added.reason](email));
      } else {
        const { staff: member, secondFactor } = added;
        console.log(`Added ${member.name} <${member.email}>, ${ROLE_NAMES[member.role]}.`);
        if (secondFactor) {
          console.log("They sign in with the password and a one-time code. Add the account to an authenticator app");
          console.log("by this address (as a QR code or a link):");
          console.log(`  ${secondFactor.uri}`);
          console.log("or by this secret, typed in:");
          console.log(`  ${secondFactor.secret}`);
          console.log("It is shown this once: keep it in the app only.");
        } else {
          console.log("They sign in with the password alone (the door needs no one-time code).");
        }
        code = 0;
      }
    } else if (command === "remove") {
      const email = values.email!.trim();
      const removed = await staff.remove({ email });
      if (!removed.ok) {
        console.error(`No current member of staff has the email ${email}: nothing was done.`);
      } else {
        const { staff: member } = removed;
        console.log(`Removed ${member.name} <${member.email}>, ${ROLE_NAMES[member.role]}: signed out everywhere.`);
        code = 0;
      }
    } else {
      const members = await staff.list();
      if (members.length === 0) console.log("No staff yet: add one with `npm run staff -- add …`.");
      else console.log(`Staff (${members.length}):`);
      for (const member of members)
        console.log(
          `  ${member.email}  ${member.name}  ${ROLE_NAMES[member.role]}  since ${member.createdAt.slice(0, 10)}`,
        );
      code = 0;
    }
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
}
process.exit(code);
