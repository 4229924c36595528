/** The answers a sampling panel offers, in the order it lists and numbers them. */
export type SamplingChoice = "send" | "edit" | "deny" | "reason";
/** The answers a panel asking to open a web page offers. */
export type UrlChoice = "open" | "decline" | "cancel";

export interface QuestionOption<Choice extends string> {
  choice: Choice;
  /** The single-key shortcut, honoured only once the guard has passed; none: Esc or the list. */
  shortcut: string | undefined;
  /** The words, given the model that would answer (sampling) or the page's domain. */
  label: (subject: string) => string;
  /** Fewer words, for a narrow window. */
  short: string;
}

/**
 * As an approval lists them (approval-choices.ts): the no's first, where the focus starts, so no
 * reflex of ↑ or ↓ and Enter says yes.
 */
export const SAMPLING_OPTIONS: ReadonlyArray<QuestionOption<SamplingChoice>> = [
  { choice: "deny", shortcut: "n", label: () => "Deny", short: "Deny" },
  { choice: "reason", shortcut: "d", label: () => "Deny and tell the server why", short: "Deny, saying why" },
  { choice: "edit", shortcut: "e", label: () => "Edit the message, then send it", short: "Edit, then send" },
  { choice: "send", shortcut: "y", label: (model) => `Send it to ${model}`, short: "Send it" },
];

export const URL_OPTIONS: ReadonlyArray<QuestionOption<UrlChoice>> = [
  { choice: "decline", shortcut: "n", label: () => "Decline", short: "Decline" },
  { choice: "cancel", shortcut: undefined, label: () => "Cancel (Esc)", short: "Cancel (Esc)" },
  {
    choice: "open",
    shortcut: "y",
    label: (domain) => `Open the page on ${domain} in your browser`,
    short: "Open it",
  },
];

/** A new panel focuses the answer that gives nothing away: Enter on a panel nobody moved through says no. */
export const INITIAL_SAMPLING_FOCUS = SAMPLING_OPTIONS.findIndex((option) => option.choice === "deny");
export const INITIAL_URL_FOCUS = URL_OPTIONS.findIndex((option) => option.choice === "decline");
