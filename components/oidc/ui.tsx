/**
 * Building blocks of the sign-in pages: server components only (the pages
 * are plain HTML forms and work without JavaScript). Large targets, a
 * visible focus ring, WCAG AA contrast.
 */
const FOCUS = "focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

const BUTTONS = {
  primary: "bg-blue-700 text-white hover:bg-blue-800",
  secondary: "border border-slate-500 bg-white text-slate-900 hover:bg-slate-100",
  link: "text-blue-800 underline underline-offset-2 hover:text-blue-900",
} as const;

export function SubmitButton({
  children,
  variant = "primary",
  name,
  value,
}: {
  children: React.ReactNode;
  variant?: keyof typeof BUTTONS;
  name?: string;
  value?: string;
}) {
  const shape =
    variant === "link"
      ? "rounded px-1 py-2 text-base font-semibold"
      : "inline-flex min-h-12 w-full items-center justify-center rounded-lg px-5 py-3 text-base font-semibold sm:w-auto";
  return (
    <button type="submit" name={name} value={value} className={`${shape} ${BUTTONS[variant]} ${FOCUS}`}>
      {children}
    </button>
  );
}

const TONES = {
  info: "border-blue-300 bg-blue-50 text-blue-950",
  success: "border-green-300 bg-green-50 text-green-950",
  error: "border-red-300 bg-red-50 text-red-950",
} as const;

export function Notice({ tone, id, children }: { tone: keyof typeof TONES; id?: string; children: React.ReactNode }) {
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={`mt-4 rounded-lg border p-4 ${TONES[tone]}`}>
      {children}
    </div>
  );
}

/** A plain POST form to one of the interaction's actions, with the CSRF token. */
export function ActionForm({
  id,
  action,
  csrf,
  children,
  className = "",
}: {
  id: string;
  action: "email" | "code" | "restart" | "consent";
  csrf: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <form method="post" action={`/oidc/interaction/${id}/${action}`} className={className}>
      <input type="hidden" name="csrf" value={csrf} />
      {children}
    </form>
  );
}

export const INPUT =
  `mt-2 block w-full rounded-lg border border-slate-500 bg-white px-4 py-3 text-lg text-slate-900 placeholder:text-slate-500 aria-[invalid=true]:border-red-700 ${FOCUS}`;
