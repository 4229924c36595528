import type { Prompt } from "@modelcontextprotocol/client";

/** `/everything:args-prompt Paris state="New York"`, taken apart. */
export interface PromptInvocation {
  server: string;
  prompt: string;
  /** The text after the command name, as typed. */
  rest: string;
}

/** One word of the arguments: its value, and the argument it names when written `key=value`. */
export interface ArgumentWord {
  value: string;
  key: string | undefined;
}

/**
 * A server prompt's command: a slash, the server, a colon, the prompt, then its arguments.
 * Undefined for anything else (other commands, `//` escapes, messages).
 */
export function parsePromptInvocation(input: string): PromptInvocation | undefined {
  const match = /^\s*\/([^\s/:][^\s:]*):(\S+)(?:\s+([\s\S]*))?$/.exec(input);
  if (!match) return undefined;
  const [, server = "", prompt = "", rest = ""] = match;
  return { server, prompt, rest: rest.trim() };
}

/**
 * Splits arguments as a shell would: on spaces outside quotes, `"…"` (with `\"` and `\\`) and
 * `'…'` quoting. A word that starts `name=` before any quote names an argument; a quoted word
 * never does, so `"a=b"` is a value. Throws on an unclosed quote.
 */
export function splitArguments(text: string): ArgumentWord[] {
  const words: ArgumentWord[] = [];
  let value = "";
  let started = false;
  let quotedAt: number | undefined;
  let quote: '"' | "'" | undefined;
  const finish = (): void => {
    if (!started) return;
    const key = /^([A-Za-z_][\w.-]*)=/.exec(value)?.[1];
    const named = key !== undefined && (quotedAt === undefined || quotedAt > key.length);
    words.push(named ? { key, value: value.slice(key.length + 1) } : { key: undefined, value });
    value = "";
    started = false;
    quotedAt = undefined;
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (quote) {
      if (char === quote) quote = undefined;
      else if (quote === '"' && char === "\\" && /["\\]/.test(text.charAt(index + 1))) {
        value += text.charAt(index + 1);
        index += 1;
      } else value += char;
    } else if (/\s/.test(char)) {
      finish();
    } else if (char === '"' || char === "'") {
      quote = char;
      quotedAt ??= value.length;
      started = true;
    } else {
      value += char;
      started = true;
    }
  }
  if (quote) throw new Error(`the arguments have an unclosed ${quote === '"' ? "double" : "single"} quote`);
  finish();
  return words;
}

/** `<city> [state]`: the prompt's arguments as a usage line, required ones in angle brackets. */
export function promptUsage(prompt: Prompt): string {
  return (prompt.arguments ?? [])
    .map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`))
    .join(" ");
}

/**
 * The arguments to render `prompt` with, from the words typed after its command: `key=value`
 * by name, the rest in the order the prompt declares them. A mistake is one sentence that names
 * the command and what it takes.
 */
export function bindPromptArguments(
  command: string,
  prompt: Prompt,
  words: readonly ArgumentWord[],
): { ok: true; args: Record<string, string> } | { ok: false; reason: string } {
  const declared = prompt.arguments ?? [];
  const names = declared.map((argument) => argument.name);
  const usage = `${command}${declared.length > 0 ? ` ${promptUsage(prompt)}` : ""}`;
  const args: Record<string, string> = {};
  for (const word of words) {
    if (word.key === undefined) continue;
    if (!names.includes(word.key)) {
      const known = names.length > 0 ? `its arguments: ${names.join(", ")}` : "it takes none";
      return { ok: false, reason: `${command} has no argument "${word.key}" (${known}); usage: ${usage}.` };
    }
    args[word.key] = word.value;
  }
  const open = names.filter((name) => !(name in args));
  const positional = words.filter((word) => word.key === undefined);
  if (positional.length > open.length) {
    if (declared.length === 0) return { ok: false, reason: `${command} takes no arguments.` };
    const extra = positional.length - open.length;
    return {
      ok: false,
      reason: `${command} takes ${declared.length} argument${declared.length === 1 ? "" : "s"} (${names.join(", ")}) and got ${extra} word${extra === 1 ? "" : "s"} too many; quote a value with spaces ("New York"): ${usage}.`,
    };
  }
  positional.forEach((word, index) => {
    const name = open[index];
    if (name !== undefined) args[name] = word.value;
  });
  const missing = declared.filter((argument) => argument.required && !(argument.name in args));
  if (missing.length > 0) {
    const list = missing.map((argument) => argument.name);
    const named = list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list.at(-1) ?? ""}`;
    return { ok: false, reason: `${command} needs ${named}: ${usage}.` };
  }
  // In the order the prompt declares them, however they were typed.
  const ordered = Object.fromEntries(
    names.filter((name) => name in args).map((name) => [name, args[name] ?? ""]),
  );
  return { ok: true, args: ordered };
}
