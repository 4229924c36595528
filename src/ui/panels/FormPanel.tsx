import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { FormField } from "../../core/person/elicitation-form.js";
import { FORM_BUTTONS, isTyped, type FieldEntry, type FormState } from "./form-state.js";
import { GuardNote, PanelHints, TextField } from "./QuestionParts.js";
import {
  FIELD_INDENT,
  fieldKeys,
  fieldLabel,
  fieldRows,
  fieldSummary,
  shownProblem,
  valueBelowLabel,
  visibleFields,
} from "./question-view.js";
import { useTheme } from "../parts/theme.js";

const FRAME = 4;
const BUTTON_LABELS = { accept: "Accept", decline: "Decline", cancel: "Cancel" } as const;

/**
 * A server's form: its message, the fields around the focused one (with the focused field's
 * description and choices, and the problem of each field left wrong), then Accept, Decline, Cancel.
 */
export function FormPanel({
  server,
  message,
  form,
  engaged,
  width,
  maxLines,
}: {
  server: string;
  message: string;
  form: FormState;
  /** The person has started filling it in; until then keys go to the prompt. */
  engaged: boolean;
  width: number;
  /** Most rows the fields may take. */
  maxLines: number;
}): ReactNode {
  const theme = useTheme();
  const inner = Math.max(1, width - FRAME);
  const heights = form.fields.map((_, index) => fieldRows(form, index, inner));
  const { start, end } = visibleFields(heights, form.focus, Math.max(3, maxLines - 2));
  const onButtons = form.focus === form.fields.length;
  const focused = form.fields[form.focus];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Text bold color={theme.color("warning")}>
        Server {JSON.stringify(server)} asks you to fill in a form
      </Text>
      {message ? <Text>{message}</Text> : null}
      <Text color={theme.color("muted")}>* required · what you accept goes to the server</Text>
      {start > 0 ? <Text color={theme.color("muted")}>↑ {start} more above</Text> : null}
      {form.fields.slice(start, end).map((field, offset) => {
        const index = start + offset;
        const entry = form.entries[index];
        return entry ? (
          <FieldView
            key={field.name}
            field={field}
            entry={entry}
            focused={index === form.focus}
            width={inner}
          />
        ) : null;
      })}
      {end < form.fields.length ? (
        <Text color={theme.color("muted")}>↓ {form.fields.length - end} more below</Text>
      ) : null}
      <Box flexDirection="row" marginTop={1} gap={2}>
        {FORM_BUTTONS.map((button, index) => (
          <Text key={button} bold inverse={engaged && onButtons && index === form.button}>
            {`[ ${BUTTON_LABELS[button]} ]`}
          </Text>
        ))}
      </Box>
      <PanelHints
        width={inner}
        hints={
          !engaged
            ? [["Tab start filling it in", "Tab start"], ["Esc cancel"]]
            : onButtons
              ? [
                  ["←/→ choose"],
                  ["Enter confirm"],
                  ["Shift+Tab/↑ back to the fields", "↑ back"],
                  ["Esc cancel"],
                ]
              : [
                  ["Tab/↓/Enter next", "Tab next"],
                  ["Shift+Tab/↑ back", "↑ back"],
                  [focused ? fieldKeys(focused) : ""],
                  ["Esc cancel"],
                ]
        }
      />
      {engaged ? null : <GuardNote width={inner} then="Tab starts the form" />}
    </Box>
  );
}

/**
 * One field: label and value side by side when they fit, else the value under the label, so a
 * narrow panel wraps both by words. What follows (description, choices, problem) wraps under
 * its indent.
 */
function FieldView({
  field,
  entry,
  focused,
  width,
}: {
  field: FormField;
  entry: FieldEntry;
  focused: boolean;
  width: number;
}): ReactNode {
  const theme = useTheme();
  const problem = shownProblem(field, entry);
  const value =
    focused && isTyped(field) ? (
      <TextField editor={entry.text} maxLines={1} />
    ) : (
      <Text color={entry.text.text === "" && isTyped(field) ? theme.color("muted") : undefined}>
        {fieldSummary(field, entry)}
      </Text>
    );
  const label = <Text bold={focused}>{fieldLabel(field, focused)}</Text>;
  return (
    <Box flexDirection="column">
      {valueBelowLabel(field, entry, focused, width) ? (
        <>
          {label}
          <Indented>{value}</Indented>
        </>
      ) : (
        <Box flexDirection="row" gap={1}>
          <Box flexShrink={0}>{label}</Box>
          {value}
        </Box>
      )}
      {focused && field.description !== undefined ? (
        <Indented>
          <Text color={theme.color("muted")}>{field.description}</Text>
        </Indented>
      ) : null}
      {field.asksForSecret ? (
        <Indented>
          <Text color={theme.color("warning")}>
            ⚠ this looks like a secret; the MCP spec forbids servers to ask for one in a form
          </Text>
        </Indented>
      ) : null}
      {focused && (field.kind === "enum" || field.kind === "multi") ? (
        <Indented>
          <Choices field={field} entry={entry} />
        </Indented>
      ) : null}
      {problem === undefined ? null : (
        <Indented>
          <Text color={theme.color("error")}>✗ {problem}</Text>
        </Indented>
      )}
    </Box>
  );
}

/** A field's second lines: wrapped rows stay under the indent, not under the label. */
function Indented({ children }: { children: ReactNode }): ReactNode {
  return <Box paddingLeft={FIELD_INDENT}>{children}</Box>;
}

/** A choice field's options, numbered; the chosen ticked, the one under the cursor inverted. */
function Choices({ field, entry }: { field: FormField; entry: FieldEntry }): ReactNode {
  const multi = field.kind === "multi";
  return (
    <Text>
      {field.options.map((option, index) => {
        const chosen = entry.chosen.includes(option.value);
        const mark = multi ? (chosen ? "[x]" : "[ ]") : chosen ? "(•)" : "( )";
        return (
          <Text key={option.value} inverse={index === entry.cursor}>
            {`${mark} ${index + 1} ${option.label}`}
            {index < field.options.length - 1 ? "  " : ""}
          </Text>
        );
      })}
    </Text>
  );
}
