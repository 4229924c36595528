import {
  addFile,
  addPage,
  isPageUrl,
  pageUrlProblem,
  removeDocument,
  type DocumentChange,
} from "../kb-docs/add-document.js";
import type { KnowledgeBase } from "../kb/index.js";
import { decideApproval } from "../policy/approval-policy.js";
import { commandApprovalRules } from "../policy/approval-rules.js";
import type { AllowableTool } from "../policy/tool-allowances.js";
import { formatBytes } from "../text/index.js";
import type { CommandResult, DocumentAccess } from "./command-types.js";

const ADD_USAGE = "Usage: /kb add <path|url> [--as <name>] [--force]";

/**
 * Fetching pages for the knowledge base, as the session's allowances know it: "Always allow" on
 * one `/kb add <url>` is an allowance like a tool's, and lets later fetches run unasked.
 */
const PAGE_FETCH: AllowableTool = {
  server: "mcpterm",
  name: "kb add",
  description: "Fetches a web page and adds it to the knowledge base.",
  inputSchema: {},
  tier: "external",
};

/**
 * `/kb add <path|url>` and `/kb remove <path>`. Fetching a page is an external call, decided by
 * the approval policy like any other: `--yes` runs it; a front end that can ask (the TUI's
 * approval panel) asks; one that cannot says how to confirm with `/kb add --yes <url>`.
 */
export async function addDocumentCommand(
  kb: KnowledgeBase,
  access: DocumentAccess | undefined,
  args: readonly string[],
): Promise<CommandResult> {
  if (!access) return { kind: "error", message: "Adding documents is not available here." };
  const flags = parseFlags(args);
  if (!flags.ok) return { kind: "error", message: flags.message };
  const { source, as, force, yes } = flags;
  const options = { as, force };
  if (!isPageUrl(source)) return report(await addFile(kb, source, access.cwd, options), "Added");
  const problem = pageUrlProblem(source);
  if (problem !== undefined) return { kind: "error", message: problem };
  const host = new URL(source).host;
  const confirm = `/kb add --yes ${[source, ...rest(as, force)].join(" ")}`;
  const verdict = decideApproval(
    { tier: PAGE_FETCH.tier, allowance: access.allowances.check(PAGE_FETCH) },
    commandApprovalRules({ yes, interactive: access.person.absent === undefined }),
  );
  if (verdict.action === "deny") {
    return {
      kind: "text",
      text:
        `Fetching ${source} reaches ${host}: an external call, so it needs your yes. ` +
        `To fetch it and add it to the knowledge base, type ${confirm}`,
    };
  }
  if (verdict.action === "ask") {
    const answer = await access.person.approveFetch(
      { url: source, host, reason: verdict.reason },
      new AbortController().signal,
    );
    if (!answer.approved)
      return {
        kind: "text",
        text: `Not fetched (${answer.reason}): ${source}. ${confirm} fetches it without asking.`,
      };
    if (answer.remember) access.allowances.allow(PAGE_FETCH, answer.remember);
  }
  return report(await addPage(kb, source, await access.fetchPage(source), options), "Added");
}

export async function removeDocumentCommand(
  kb: KnowledgeBase,
  access: DocumentAccess | undefined,
  args: readonly string[],
): Promise<CommandResult> {
  if (!access) return { kind: "error", message: "Removing documents is not available here." };
  if (args.length !== 1 || args[0] === undefined)
    return { kind: "error", message: "Usage: /kb remove <path>" };
  return report(await removeDocument(kb, args[0], access.cwd), "Removed");
}

function report(change: DocumentChange, verb: "Added" | "Removed"): CommandResult {
  if (!change.ok) return { kind: "error", message: change.reason };
  const how = change.replaced ? "Replaced" : verb;
  const where = verb === "Removed" ? "from" : change.replaced ? "in" : "to";
  return {
    kind: "text",
    text: `${how} ${change.path} (${formatBytes(change.bytes)}) ${where} the knowledge base; indexed in ${change.report.durationMs} ms.`,
  };
}

type Flags =
  | { ok: true; source: string; as: string | undefined; force: boolean; yes: boolean }
  | { ok: false; message: string };

function parseFlags(args: readonly string[]): Flags {
  let as: string | undefined;
  let force = false;
  let yes = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--force") force = true;
    else if (arg === "--yes") yes = true;
    else if (arg === "--as") {
      as = args[++i];
      if (as === undefined) return { ok: false, message: "--as needs a name. " + ADD_USAGE };
    } else if (arg.startsWith("--")) return { ok: false, message: `Unknown option ${arg}. ${ADD_USAGE}` };
    else words.push(arg);
  }
  const [source, ...extra] = words;
  if (source === undefined || extra.length > 0) return { ok: false, message: ADD_USAGE };
  return { ok: true, source, as, force, yes };
}

function rest(as: string | undefined, force: boolean): string[] {
  return [...(as === undefined ? [] : ["--as", as]), ...(force ? ["--force"] : [])];
}
