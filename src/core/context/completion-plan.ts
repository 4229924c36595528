import type {
  CompleteRequest,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/client";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { parsePromptInvocation, splitArguments } from "./prompt-arguments.js";
import { templateProgress } from "./uri-template.js";

/** What one connected server offers that Tab can complete to. */
export interface CatalogEntry {
  name: string;
  resources: readonly Resource[];
  resourceTemplates: readonly ResourceTemplate[];
  prompts: readonly Prompt[];
}

/**
 * What Tab can offer for the word before the cursor: words known now, or a question for a
 * server (completion/complete) whose answer becomes the words.
 */
export type CompletionPlan =
  | { kind: "words"; words: string[] }
  | {
      kind: "ask";
      server: string;
      params: CompleteRequest["params"];
      /** The words for the server's suggestions (already-known words included). */
      words: (values: readonly string[]) => string[];
    };

/**
 * Pure: the plan for `@server:uri` mentions (servers, then their resources and templates, then
 * a template's variables from the server) and for a server prompt's arguments; undefined where
 * neither applies, and the ordinary completion takes over.
 */
export function completionPlan(
  before: string,
  catalog: readonly CatalogEntry[],
  redact: (text: string) => string,
): CompletionPlan | undefined {
  const word = /\S*$/.exec(before)?.[0] ?? "";
  if (word.startsWith("@")) return mentionPlan(word, catalog, redact);
  return promptArgumentPlan(before, word, catalog, redact);
}

function mentionPlan(
  word: string,
  catalog: readonly CatalogEntry[],
  redact: (text: string) => string,
): CompletionPlan {
  const colon = word.indexOf(":");
  const offering = catalog.filter((entry) => entry.resources.length + entry.resourceTemplates.length > 0);
  if (colon < 0) return { kind: "words", words: offering.map((entry) => `@${entry.name}:`) };
  const entry = offering.find((candidate) => candidate.name === word.slice(1, colon));
  if (!entry) return { kind: "words", words: [] };
  const mention = `@${entry.name}:`;
  const typed = word.slice(colon + 1);
  const words = entry.resources.map((resource) => mention + redact(resource.uri));
  let variable: Extract<CompletionPlan, { kind: "ask" }> | undefined;
  for (const template of entry.resourceTemplates) {
    const progress = templateProgress(template.uriTemplate, typed);
    if (!progress) continue;
    if (progress.kind === "literal") {
      words.push(mention + progress.text);
      continue;
    }
    variable ??= {
      kind: "ask",
      server: entry.name,
      params: {
        ref: { type: "ref/resource", uri: template.uriTemplate },
        argument: { name: progress.name, value: progress.value },
        ...(Object.keys(progress.earlier).length > 0 ? { context: { arguments: progress.earlier } } : {}),
      },
      words: (values) => [
        ...words,
        ...suggestions(values, redact)
          .filter((value) => !/\s/.test(value))
          .map((value) => `${mention}${progress.typed}${value}${progress.next}`),
      ],
    };
  }
  return variable ?? { kind: "words", words };
}

function promptArgumentPlan(
  before: string,
  word: string,
  catalog: readonly CatalogEntry[],
  redact: (text: string) => string,
): CompletionPlan | undefined {
  const invocation = parsePromptInvocation(before);
  // Still typing the command itself: the ordinary completion offers the commands.
  if (!invocation || !/\s/.test(before.trimStart())) return undefined;
  const prompt = catalog
    .find((entry) => entry.name === invocation.server)
    ?.prompts.find((candidate) => candidate.name === invocation.prompt);
  const declared = prompt?.arguments ?? [];
  if (!prompt || declared.length === 0) return { kind: "words", words: [] };
  let earlier: ReturnType<typeof splitArguments>;
  try {
    earlier = splitArguments(before.slice(0, before.length - word.length).replace(/^\s*\S+/, ""));
  } catch {
    return { kind: "words", words: [] };
  }
  const bound: Record<string, string> = {};
  for (const given of earlier) if (given.key !== undefined) bound[given.key] = given.value;
  const open = declared.map((argument) => argument.name).filter((name) => !(name in bound));
  const positional = earlier.filter((given) => given.key === undefined);
  positional.forEach((given, index) => {
    const name = open[index];
    if (name !== undefined) bound[name] = given.value;
  });
  const keyed = /^([A-Za-z_][\w.-]*)=(.*)$/.exec(word);
  const keyedName =
    keyed?.[1] !== undefined && declared.some((argument) => argument.name === keyed[1])
      ? keyed[1]
      : undefined;
  const name = keyedName ?? open[positional.length];
  if (name === undefined) return { kind: "words", words: [] };
  const prefix = keyedName === undefined ? "" : `${keyedName}=`;
  const typed = word.slice(prefix.length);
  const quoted = typed.startsWith('"');
  const value = quoted ? typed.slice(1) : typed;
  const keys =
    keyedName === undefined && word !== ""
      ? open
          .filter((candidate) => !(candidate in bound))
          .map((candidate) => `${candidate}=`)
          .filter((key) => key.startsWith(word))
      : [];
  return {
    kind: "ask",
    server: invocation.server,
    params: {
      ref: { type: "ref/prompt", name: prompt.name },
      argument: { name, value },
      ...(Object.keys(bound).length > 0 ? { context: { arguments: bound } } : {}),
    },
    words: (values) => [
      ...suggestions(values, redact).map(
        (suggestion) => prefix + (quoted || /\s/.test(suggestion) ? JSON.stringify(suggestion) : suggestion),
      ),
      ...keys,
    ],
  };
}

/** A server's suggestions as words to type: terminal controls and secrets removed, blanks dropped. */
function suggestions(values: readonly string[], redact: (text: string) => string): string[] {
  return values.map((value) => sanitizeForTerminal(redact(value))).filter((value) => value.trim() !== "");
}
