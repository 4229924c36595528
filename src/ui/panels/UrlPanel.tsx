import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { ElicitationQuestion } from "../../core/person/elicitation.js";
import { URL_OPTIONS } from "./question-choices.js";
import { ChoiceList, GuardNote, PanelHints } from "./QuestionParts.js";
import { whileDrafting } from "./key-hints.js";
import { useTheme } from "../parts/theme.js";

const FRAME = 4;
/** Most of the message and the address the panel shows: the domain and the choices stay on screen. */
const MESSAGE_SHOWN = 400;
const ADDRESS_SHOWN = 200;

function clip(text: string, most: number): string {
  return text.length > most ? `${text.slice(0, most)}… (${text.length - most} more characters)` : text;
}

/**
 * A server asks the person to open a web page: its message, the domain (the part to check, shown
 * on its own line) and the whole address. Nothing opens without a yes.
 */
export function UrlPanel({
  question,
  focus,
  draft,
  width,
}: {
  question: Extract<ElicitationQuestion, { mode: "url" }>;
  focus: number;
  draft: boolean;
  width: number;
}): ReactNode {
  const theme = useTheme();
  const inner = Math.max(1, width - FRAME);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Text bold color={theme.color("warning")}>
        Server {JSON.stringify(question.server)} asks you to open a web page
      </Text>
      {question.message ? <Text>{clip(question.message, MESSAGE_SHOWN)}</Text> : null}
      <Text>Address: {clip(question.url, ADDRESS_SHOWN)}</Text>
      {/* Right above the choices, so no long message or address can push it out of sight. */}
      <Box flexDirection="row" marginTop={1}>
        <Text>Domain: </Text>
        <Text bold inverse>
          {` ${question.domain} `}
        </Text>
      </Box>
      <ChoiceList options={URL_OPTIONS} focus={focus} subject={question.domain} width={inner} />
      <PanelHints
        width={inner}
        hints={
          draft
            ? whileDrafting("cancel")
            : [
                ["Enter confirm"],
                ["Esc cancel"],
                ["y open"],
                ["n decline"],
                ["↑/↓ or 1–3 choose", "↑/↓ choose"],
              ]
        }
      />
      <GuardNote width={inner} />
    </Box>
  );
}
