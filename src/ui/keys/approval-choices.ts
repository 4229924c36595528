/** The answers an approval panel offers, in the order it lists and numbers them. */
export type ApprovalChoice = "once" | "always" | "project" | "deny" | "reason";

export interface ApprovalOption {
  choice: ApprovalChoice;
  /** The single-key shortcut, honoured only once the approval guard has passed. */
  shortcut: string;
  label: (callLabel: string) => string;
}

/**
 * The no's first, where the focus starts, and each yes below them, the least first: a reflex
 * (↑ and Enter to send the last message again, ↓ and Enter) never approves anything, and the
 * one choice saved beyond this session is the farthest from where the focus starts.
 */
export const APPROVAL_OPTIONS: readonly ApprovalOption[] = [
  { choice: "deny", shortcut: "n", label: () => "Deny" },
  { choice: "reason", shortcut: "d", label: () => "Deny and tell the model why" },
  { choice: "once", shortcut: "y", label: () => "Approve once" },
  { choice: "always", shortcut: "a", label: (call) => `Always allow ${call} this session` },
  {
    choice: "project",
    shortcut: "p",
    label: (call) => `Always allow ${call} in this project (saved in your settings)`,
  },
];

/** A new panel focuses "Deny": Enter on a panel nobody moved through never approves. */
export const INITIAL_APPROVAL_FOCUS = APPROVAL_OPTIONS.findIndex((option) => option.choice === "deny");
