import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { checkInSchema, DOOR_NAME_MAX_LENGTH, doorChoiceSchema, parseWithZod } from "~/forms/schemas.server";
import { errorsForSummary, translateMessage } from "~/forms/checkout/messages";
import { formatDateTime } from "~/i18n/format";
import type { AccessNeeds, CheckInOutcome } from "~/ticketing/check-in.server";
import { ticketCodeOf } from "~/ticketing/ticket-code";
import type { ListedPerformance } from "~/views/staff-performances";
import { listedPerformances } from "~/web/staff-performances.server";
import { requireStaff } from "~/web/staff.server";
import { CameraScan } from "~/components/camera-scan";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { ChosenPerformance, PerformanceChoice, StaffHomeLink } from "~/components/performance-choice";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// Door check-in (issue 55 item 2, decision 0060), without script: choose the performance and name
// the door (a GET form, so the page's address keeps them and a reload or a bookmark comes back to
// the same door), then type each e-ticket's code. The answer is the page's first thing, in a
// status region, and the code box is empty and focused again for the next ticket. Which member of
// staff scanned is the session's, never the form's.

export const handle = { titleKey: "staff.door.title" };

/**
 * The performances a door may choose: those begun in the last hours (latecomers, the interval)
 * and those of the coming week, read from the catalogue's list of what is on (asked as of the
 * earlier time, so a performance already begun is still in it).
 */
const BEGUN_WITHIN_HOURS = 12;
const AHEAD_DAYS = 7;

function doorPerformances(context: AppLoadContext) {
  const now = context.clock.now().getTime();
  const until = new Date(now + AHEAD_DAYS * 24 * 60 * 60_000).toISOString();
  return listedPerformances(context, new Date(now - BEGUN_WITHIN_HOURS * 60 * 60_000), until);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "checkIn");
  const performances = await doorPerformances(context);
  const query = new URL(request.url).searchParams;
  const asked = { performance: query.get("performance") ?? "", door: query.get("door") ?? "" };
  let errors: Record<string, string[]> = {};
  let chosen: (ListedPerformance & { door: string }) | null = null;
  if (query.has("performance") || query.has("door")) {
    const parsed = doorChoiceSchema.safeParse(asked);
    const performance = performances.find((listed) => listed.id === asked.performance);
    if (parsed.success && performance) chosen = { ...performance, door: parsed.data.door };
    else {
      errors = parsed.success ? {} : parsed.error.flatten().fieldErrors;
      if (!performance) errors.performance = ["staff.door.performanceMissing"];
    }
  }
  return {
    performances,
    asked,
    errors,
    chosen,
    counts: chosen ? await context.checkIn.counts(chosen.id) : null,
    doorMaxLength: DOOR_NAME_MAX_LENGTH,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { staff } = await requireStaff(request, context, "checkIn");
  const submission = parseWithZod(await request.formData(), { schema: checkInSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), outcome: null }, { status: 400 });
  const { performance, door, code } = submission.value;
  if (!(await doorPerformances(context)).some((listed) => listed.id === performance))
    return data(
      { result: submission.reply({ formErrors: ["staff.door.performanceMissing"] }), outcome: null },
      { status: 400 },
    );
  const outcome = await context.checkIn.checkIn({ performanceId: performance, code, door, staffId: staff.id });
  await context.staff.record({
    staffId: staff.id,
    action: "checkIn",
    performanceId: performance,
    detail: {
      door,
      outcome: outcome.outcome,
      ...("label" in outcome && { ticket: outcome.label }),
      ...(outcome.outcome === "admitted" && { orderNumber: outcome.orderNumber }),
    },
  });
  // The form emptied for the next ticket, with script as without.
  return { result: submission.reply({ resetForm: true }), outcome };
}

const OUTCOME_ID = "door-outcome";

function AccessNeedsList({ access }: { access: AccessNeeds }) {
  const { t } = useTranslation();
  const lines: string[] = [];
  if (access.place) lines.push(t(`staff.door.access.place.${access.place}`));
  const { wheelchairSpaces, companionSeats, accessSeats } = access.booking;
  if (wheelchairSpaces) lines.push(t("staff.door.access.wheelchairSpaces", { count: wheelchairSpaces }));
  if (companionSeats) lines.push(t("staff.door.access.companionSeats", { count: companionSeats }));
  if (accessSeats) lines.push(t("staff.door.access.accessSeats", { count: accessSeats }));
  for (const { service, seatSuits } of access.services)
    lines.push(
      t(seatSuits ? "staff.door.access.serviceSuits" : "staff.door.access.service", {
        service: t(`access.service.${service}`),
      }),
    );
  if (access.registered) {
    if (access.registered.wheelchair) lines.push(t("staff.door.access.registeredWheelchair"));
    if (access.registered.companions)
      lines.push(t("staff.door.access.registeredCompanions", { count: access.registered.companions }));
    if (access.registered.otherNeeds)
      lines.push(t("staff.door.access.registeredOther", { needs: access.registered.otherNeeds }));
  }
  if (lines.length === 0) return <p>{t("staff.door.access.none")}</p>;
  return (
    <>
      <h3>{t("staff.door.access.heading")}</h3>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}

function Outcome({ outcome, timeZone }: { outcome: CheckInOutcome; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string, zone = timeZone) => formatDateTime(iso, zone, i18n.language);
  const heading = <h2 className="door-outcome__heading">{t(`staff.door.outcome.${outcome.outcome}.title`)}</h2>;
  switch (outcome.outcome) {
    case "admitted":
      return (
        <>
          {heading}
          <p className="door-outcome__seat">{outcome.label}</p>
          <p>{t("staff.door.outcome.admitted.name", { name: outcome.name, number: outcome.orderNumber })}</p>
          <AccessNeedsList access={outcome.access} />
        </>
      );
    case "alreadyUsed":
      return (
        <>
          {heading}
          <p>{t("staff.door.outcome.alreadyUsed.when", { when: when(outcome.checkedInAt), door: outcome.door })}</p>
          <p>{t("staff.door.outcome.ticket", { label: outcome.label, name: outcome.name })}</p>
        </>
      );
    case "void":
      return (
        <>
          {heading}
          <p>
            {outcome.voidedAt
              ? t("staff.door.outcome.void.refunded", { when: when(outcome.voidedAt) })
              : t("staff.door.outcome.void.refunding")}
          </p>
          <p>{t("staff.door.outcome.ticket", { label: outcome.label, name: outcome.name })}</p>
        </>
      );
    case "otherPerformance":
      return (
        <>
          {heading}
          <p>
            {t("staff.door.outcome.otherPerformance.for", {
              show: outcome.performance.title,
              venue: outcome.performance.venue,
              when: when(outcome.performance.startsAt, outcome.performance.timeZone),
            })}
          </p>
          <p>{outcome.label}</p>
        </>
      );
    case "unknown":
      return (
        <>
          {heading}
          <p>{t("staff.door.outcome.unknown.text")}</p>
        </>
      );
  }
}

function ChoosePerformance() {
  const { t } = useTranslation();
  const { performances, asked, errors, chosen, doorMaxLength } = useLoaderData<typeof loader>();
  return (
    <PerformanceChoice
      title={t("staff.door.title")}
      wording="staff.door"
      performances={performances}
      defaultValue={chosen?.id ?? asked.performance}
      errors={errors}
      fields={["performance", "door"]}
      submit={t("staff.door.start")}
    >
      <TextField
        field={{ name: "door", defaultValue: chosen?.door ?? asked.door, errors: errors.door }}
        label={t("staff.door.door")}
        hint={t("staff.door.doorHint", { count: doorMaxLength })}
        autoComplete="off"
      />
    </PerformanceChoice>
  );
}

export default function Door() {
  const { t } = useTranslation();
  const { chosen, counts } = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.checkInSchema, answered?.result, undefined, {
    revalidate: false,
  });
  const codeBox = useRef<HTMLInputElement>(null);
  if (!chosen || !counts) return <ChoosePerformance />;
  const outcome = answered?.outcome ?? null;
  const codeError = fields.code.errors?.[0];
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ["code"], t)} />
      <div
        className={outcome ? `door-outcome door-outcome--${outcome.outcome}` : "door-outcome"}
        id={OUTCOME_ID}
        role="status"
      >
        {outcome ? <Outcome outcome={outcome} timeZone={chosen.timeZone} /> : null}
      </div>
      <h1>{t("staff.door.title")}</h1>
      <ChosenPerformance
        performance={chosen}
        wording="staff.door"
        values={{ door: chosen.door }}
        changeTo="/staff/door"
      />
      <p className="door-count">{t("staff.door.count", { admitted: counts.admitted, expected: counts.expected })}</p>
      <PostForm id={form.id} onSubmit={form.onSubmit} key={form.key}>
        <input type="hidden" name="performance" value={chosen.id} />
        <input type="hidden" name="door" value={chosen.door} />
        <div className={codeError ? "field field--error" : "field"}>
          <label htmlFor="code">{t("staff.door.code")}</label>
          {codeError ? (
            <p className="field-error" id="code-error">
              <span className="visually-hidden">{t("frame.errorPrefix")}</span>
              {translateMessage(codeError, t)}
            </p>
          ) : null}
          {/* Focused on arrival: a door types (or a scanner keys in) one code after another, and
              the answer to the last is read with the box (it describes it) without leaving it. */}
          <input
            ref={codeBox}
            id="code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task, repeated at speed
            autoFocus
            aria-describedby={[outcome && OUTCOME_ID, codeError && "code-error"].filter(Boolean).join(" ") || undefined}
            aria-invalid={codeError ? true : undefined}
          />
        </div>
        {/* With script, the camera reads the code into the box and sends the form, as typing it
            and pressing Check in would: the same check, the same answer. */}
        <CameraScan
          codeOf={ticketCodeOf}
          onCode={(code) => {
            const box = codeBox.current;
            if (!box?.form) return;
            box.value = code;
            // Through the form's own submit event, so its checks and Remix's submission run as for
            // a click (a click it is, on a browser before requestSubmit: Safari before 16).
            if (typeof box.form.requestSubmit === "function") box.form.requestSubmit();
            else box.form.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
          }}
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("staff.door.checkIn")}
          </button>
        </div>
      </PostForm>
      <StaffHomeLink />
    </>
  );
}
