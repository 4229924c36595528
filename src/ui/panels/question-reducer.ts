import type { ElicitationAnswer } from "../../core/person/elicitation.js";
import type { SamplingAnswer } from "../../core/person/sampling.js";
import { APPROVAL_GUARD_MS, guardPassed } from "../keys/approval-guard.js";
import { EDITS } from "../keys/editor-edits.js";
import { formKey, newForm, type FormKey, type FormState } from "./form-state.js";
import { insertText, type EditorState } from "../keys/input-editor.js";
import { pastedText } from "../keys/pasted-text.js";
import type { KeyAction, KeyMode } from "../keys/keymap.js";
import {
  INITIAL_SAMPLING_FOCUS,
  INITIAL_URL_FOCUS,
  SAMPLING_OPTIONS,
  URL_OPTIONS,
  type QuestionOption,
} from "./question-choices.js";
import type { ServerQuestion } from "../transcript/transcript-types.js";

/** The text field of a sampling panel: the last user message being edited, or why it is denied. */
export interface TextEntry {
  purpose: "edit" | "reason";
  editor: EditorState;
  /** When the field opened: Enter sends an edit only once the guard has passed since. */
  openedAt: number;
}

export type QuestionPanel =
  | {
      kind: "sampling";
      focus: number;
      text: TextEntry | undefined;
      /** The last user message as shown, what the editor starts from; undefined when there is none. */
      lastUserText: string | undefined;
    }
  | { kind: "url"; focus: number }
  /** `engaged`: the person has started filling it in; until then keys go to the prompt. */
  | { kind: "form"; form: FormState; engaged: boolean };

/** A server question's panel state; the question itself lives in the transcript. */
export interface QuestionFocus {
  id: number;
  /** When the panel was first known here: the guard runs from this moment. */
  shownAt: number;
  /** When the person last moved the list's focus: a choice counts only a guard's time after. */
  movedAt?: number;
  panel: QuestionPanel;
}

export type QuestionAnswer =
  { kind: "sampling"; answer: SamplingAnswer } | { kind: "elicitation"; answer: ElicitationAnswer };

/** The keys a question panel takes (named in the keymap). */
export type QuestionKey = Extract<KeyAction, { type: `question_${string}` | `form_${string}` }>;

/** What the prompt knows that the guard needs. */
export interface GuardContext {
  promptEmpty: boolean;
  /** When the person last typed into the prompt. */
  lastTypedAt: number | undefined;
  at: number;
}

/** What a key did: typed into the prompt, was held by the guard, changed the panel, or answered. */
export type QuestionStep =
  | { type: "prompt" }
  | { type: "hold" }
  | { type: "update"; focus: QuestionFocus }
  | { type: "answer"; answer: QuestionAnswer };

export function startQuestion(question: ServerQuestion, at: number): QuestionFocus {
  if (question.kind === "sampling") {
    const messages = question.question.messages;
    const lastUser = messages.findLast((message) => message.role === "user");
    return {
      id: question.id,
      shownAt: at,
      panel: {
        kind: "sampling",
        focus: INITIAL_SAMPLING_FOCUS,
        text: undefined,
        lastUserText: lastUser?.text,
      },
    };
  }
  const asked = question.question;
  return {
    id: question.id,
    shownAt: at,
    panel:
      asked.mode === "url"
        ? { kind: "url", focus: INITIAL_URL_FOCUS }
        : { kind: "form", form: newForm(asked.fields, at), engaged: false },
  };
}

const DENIED: QuestionAnswer = {
  kind: "sampling",
  answer: { approved: false, reason: "the user denied it" },
};
const CANCELLED: QuestionAnswer = { kind: "elicitation", answer: { action: "cancel" } };

/**
 * Pure: what one key does to a question's panel. The guard is the approval panel's: for a while
 * after the panel appears, and after each key typed into the prompt, nothing but saying no is
 * decided, and typing goes on into the prompt; letters and digits decide only on an empty prompt.
 */
export function questionKey(focus: QuestionFocus, key: QuestionKey, context: GuardContext): QuestionStep {
  const { panel } = focus;
  if (key.type === "question_dismiss")
    return { type: "answer", answer: panel.kind === "sampling" ? DENIED : CANCELLED };
  switch (panel.kind) {
    case "sampling":
      return panel.text
        ? samplingText(focus, panel, panel.text, key, context.at)
        : listKey(focus, key, context);
    case "url":
      return listKey(focus, key, context);
    case "form":
      return formStep(focus, panel, key, context);
  }
}

/** A key on a sampling or URL panel's numbered list. */
function listKey(focus: QuestionFocus, key: QuestionKey, context: GuardContext): QuestionStep {
  const { panel } = focus;
  if (panel.kind === "form") return { type: "update", focus };
  const options: ReadonlyArray<QuestionOption<string>> =
    panel.kind === "sampling" ? SAMPLING_OPTIONS : URL_OPTIONS;
  const passed = guardPassed({ shownAt: focus.shownAt, lastTypedAt: context.lastTypedAt }, context.at);
  const withFocus = (index: number): QuestionStep => ({
    type: "update",
    focus: { ...focus, panel: { ...panel, focus: Math.min(Math.max(index, 0), options.length - 1) } },
  });
  switch (key.type) {
    case "question_key": {
      if (!passed || !context.promptEmpty) return { type: "prompt" };
      const shortcut = options.findIndex((option) => option.shortcut === key.text);
      if (shortcut >= 0) return choose(focus, shortcut, context.at);
      if (/^[1-9]$/.test(key.text) && Number(key.text) <= options.length)
        return withFocus(Number(key.text) - 1);
      return { type: "prompt" };
    }
    case "question_focus": {
      if (!passed) return { type: "hold" };
      // A move holds the choice for a guard's time: ↑ meant for the prompt's history, then Enter,
      // must not open the page or send the request one step above the default.
      const moved = withFocus(panel.focus + key.direction);
      return moved.type === "update" ? { ...moved, focus: { ...moved.focus, movedAt: context.at } } : moved;
    }
    case "question_confirm": {
      const settled = focus.movedAt === undefined || context.at - focus.movedAt >= APPROVAL_GUARD_MS;
      return passed && settled ? choose(focus, panel.focus, context.at) : { type: "hold" };
    }
    case "question_dismiss":
    case "question_text_send":
    case "question_text_back":
    case "form_text":
    case "form_paste":
    case "form_edit":
    case "form_move":
    case "form_enter":
      return { type: "update", focus };
  }
}

/** The list's `index`th answer, chosen. */
function choose(focus: QuestionFocus, index: number, at: number): QuestionStep {
  const { panel } = focus;
  if (panel.kind === "url") {
    const choice = URL_OPTIONS[index]?.choice ?? "cancel";
    const answer: ElicitationAnswer =
      choice === "open" ? { action: "accept", content: {} } : { action: choice };
    return { type: "answer", answer: { kind: "elicitation", answer } };
  }
  if (panel.kind !== "sampling") return { type: "update", focus };
  const open = (purpose: TextEntry["purpose"], text: string): QuestionStep => ({
    type: "update",
    focus: {
      ...focus,
      panel: { ...panel, text: { purpose, editor: { text, cursor: text.length }, openedAt: at } },
    },
  });
  switch (SAMPLING_OPTIONS[index]?.choice ?? "deny") {
    case "send":
      return { type: "answer", answer: { kind: "sampling", answer: { approved: true } } };
    case "edit":
      // With no user message there is nothing to edit: the list stays.
      return panel.lastUserText === undefined ? { type: "update", focus } : open("edit", panel.lastUserText);
    case "deny":
      return { type: "answer", answer: DENIED };
    case "reason":
      return open("reason", "");
  }
}

/** Enter and Esc in a sampling panel's text field; its editing keys come through `editQuestionText`. */
function samplingText(
  focus: QuestionFocus,
  panel: Extract<QuestionPanel, { kind: "sampling" }>,
  text: TextEntry,
  key: QuestionKey,
  at: number,
): QuestionStep {
  const { purpose, editor } = text;
  if (key.type === "question_text_back") {
    if (purpose === "reason") return { type: "answer", answer: DENIED };
    return { type: "update", focus: { ...focus, panel: { ...panel, text: undefined } } };
  }
  if (key.type !== "question_text_send") return { type: "update", focus };
  if (purpose === "reason") {
    const reason = editor.text.trim();
    if (!reason) return { type: "answer", answer: DENIED };
    return {
      type: "answer",
      answer: {
        kind: "sampling",
        answer: { approved: false, reason: `the user denied it and said: ${reason}` },
      },
    };
  }
  // Enter in the same burst as the key that opened the editor is not a decision to send.
  if (!guardPassed({ shownAt: text.openedAt, lastTypedAt: undefined }, at)) return { type: "update", focus };
  const answer: SamplingAnswer =
    editor.text === panel.lastUserText ? { approved: true } : { approved: true, editedText: editor.text };
  return { type: "answer", answer: { kind: "sampling", answer } };
}

/**
 * A key on a form. Until the person starts filling it in, keys type into the prompt (they may be
 * mid-sentence); once the guard has passed, Tab, ↑/↓ or Enter start it, and so does any key when
 * the prompt is empty. From then on every key is the form's.
 */
function formStep(
  focus: QuestionFocus,
  panel: Extract<QuestionPanel, { kind: "form" }>,
  key: QuestionKey,
  context: GuardContext,
): QuestionStep {
  const asked = asFormKey(key);
  if (!asked) return { type: "update", focus };
  const engaged = (form: FormState): QuestionStep => ({
    type: "update",
    focus: { ...focus, panel: { kind: "form", form, engaged: true } },
  });
  if (!panel.engaged) {
    const passed = guardPassed({ shownAt: focus.shownAt, lastTypedAt: context.lastTypedAt }, context.at);
    // With a draft in the prompt, Enter is the draft's (it sends it); only Tab and the arrows start the form.
    const navigation = key.type === "form_move" || (key.type === "form_enter" && context.promptEmpty);
    if (!passed) return navigation ? { type: "hold" } : { type: "prompt" };
    if (navigation) return engaged({ ...panel.form, lastKeyAt: context.at });
    if (!context.promptEmpty) return { type: "prompt" };
  }
  const result = formKey(panel.form, asked, context.at);
  if ("answer" in result) return { type: "answer", answer: { kind: "elicitation", answer: result.answer } };
  return engaged(result.form);
}

function asFormKey(key: QuestionKey): FormKey | undefined {
  switch (key.type) {
    case "form_text":
      return { type: "text", text: key.text };
    case "form_paste":
      return { type: "paste", text: key.text };
    case "form_edit":
      return { type: "edit", edit: key.edit };
    case "form_move":
      return { type: "move", direction: key.direction };
    case "form_enter":
      return { type: "enter" };
    case "question_key":
    case "question_focus":
    case "question_confirm":
    case "question_dismiss":
    case "question_text_send":
    case "question_text_back":
      return undefined;
  }
}

/** An edit of the sampling panel's open text field: the reason is one line, an edited message may have many. */
export function editQuestionText(
  focus: QuestionFocus,
  edit: (editor: EditorState) => EditorState,
  at: number,
): QuestionFocus {
  const { panel } = focus;
  if (panel.kind !== "sampling" || !panel.text) return focus;
  const next = edit(panel.text.editor);
  const editor =
    panel.text.purpose === "reason" ? { ...next, text: next.text.replace(/[\r\n\t]/g, " ") } : next;
  // Each key restarts the guard: "e" then "xplain more" then Enter, typed as one sentence, must
  // not send the server's request with the person's words in it.
  return { ...focus, panel: { ...panel, text: { ...panel.text, editor, openedAt: at } } };
}

/** Which keymap a question's panel uses now. */
export function questionKeyMode({ panel }: QuestionFocus): KeyMode {
  switch (panel.kind) {
    case "sampling":
      if (!panel.text) return "sampling";
      return panel.text.purpose === "edit" ? "sampling-edit" : "sampling-reason";
    case "url":
      return "url";
    case "form":
      return "form";
  }
}

/** What a question's key does to the prompt when it is typing after all. */
export function promptEditOf(action: QuestionKey): (editor: EditorState) => EditorState {
  switch (action.type) {
    case "question_key":
    case "form_text":
    case "form_paste":
      return (editor) => insertText(editor, pastedText(action.text));
    case "form_edit":
      return EDITS[action.edit];
    case "question_focus":
    case "question_confirm":
    case "question_dismiss":
    case "question_text_send":
    case "question_text_back":
    case "form_move":
    case "form_enter":
      return (editor) => editor;
  }
}
