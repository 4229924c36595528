import {
  addFile,
  addPage,
  isPageUrl,
  pageUrlProblem,
  removeDocument,
  type DocumentChange,
  type DocumentRefusal,
  type PageFetcher,
} from "../kb-docs/add-document.js";
import type { KbHit, KbStats, KnowledgeBase, RefreshReport } from "../kb/index.js";
import type { Person } from "../person/person.js";
import { decideApproval } from "../policy/approval-policy.js";
import { commandApprovalRules } from "../policy/approval-rules.js";
import type { AllowableTool, ToolAllowances } from "../policy/tool-allowances.js";
import { formatBytes, localMinute } from "../text/index.js";

/**
 * The knowledge-base command, once: `/kb` in the TUI and `mcpterm kb` on the command line parse
 * their own words into a `KbRequest`, run it here, and each renders the `KbOutcome` its own way
 * (a table on screen; text or JSON on stdout with an exit code). What is done, and what needs a
 * person's yes, is decided only here.
 */
export type KbRequest =
  | { action: "stats" }
  | { action: "search"; query: string; k: number }
  | { action: "reindex" }
  | { action: "add"; source: string; as?: string | undefined; force: boolean; yes: boolean }
  | { action: "remove"; path: string };

export type KbOutcome =
  | { kind: "stats"; stats: KbStats }
  | { kind: "search"; query: string; hits: KbHit[] }
  | { kind: "reindexed"; report: RefreshReport; stats: KbStats }
  | { kind: "changed"; verb: "Added" | "Removed"; change: DocumentChanged }
  | { kind: "refused"; refusal: DocumentRefusal }
  /** A page fetch that needs a yes it did not get: `asked` says whether a person said no. */
  | { kind: "not_fetched"; source: string; host: string; asked: boolean; reason: string };

export type DocumentChanged = Extract<DocumentChange, { ok: true }>;

/** What running a request may use: where relative paths start, who is asked, and how pages are fetched. */
export interface KbAccess {
  cwd: string;
  fetchPage: PageFetcher;
  person: Person;
  /** The session's "always allow" answers; absent for a one-off command, which remembers nothing. */
  allowances?: ToolAllowances;
  signal: AbortSignal;
}

/**
 * Fetching pages for the knowledge base, as allowances know it: "always allow" on one
 * `/kb add <url>` is an allowance like a tool's, and lets later fetches run unasked.
 */
export const PAGE_FETCH: AllowableTool = {
  server: "mcpterm",
  name: "kb add",
  description: "Fetches a web page and adds it to the knowledge base.",
  inputSchema: {},
  tier: "external",
};

export const KB_SEARCH_RESULTS = 5;

/** `access` is where documents may be changed; without it, adding and removing are refused. */
export async function runKbRequest(
  kb: KnowledgeBase,
  request: KbRequest,
  access: KbAccess | undefined,
): Promise<KbOutcome> {
  switch (request.action) {
    case "stats":
      return { kind: "stats", stats: kb.stats() };
    case "search":
      return {
        kind: "search",
        query: request.query,
        hits: await kb.retrieve(request.query, { k: request.k }),
      };
    case "reindex":
      return { kind: "reindexed", report: await kb.refresh(), stats: kb.stats() };
    case "remove":
      if (!access) return notHere("Removing");
      return changed(await removeDocument(kb, request.path, access.cwd), "Removed");
    case "add":
      if (!access) return notHere("Adding");
      return add(kb, request, access);
  }
}

function notHere(verb: "Adding" | "Removing"): KbOutcome {
  return {
    kind: "refused",
    refusal: { ok: false, kind: "usage", reason: `${verb} documents is not available here.` },
  };
}

async function add(
  kb: KnowledgeBase,
  request: Extract<KbRequest, { action: "add" }>,
  access: KbAccess,
): Promise<KbOutcome> {
  const options = { as: request.as, force: request.force };
  if (!isPageUrl(request.source))
    return changed(await addFile(kb, request.source, access.cwd, options), "Added");
  const problem = pageUrlProblem(request.source);
  if (problem !== undefined)
    return { kind: "refused", refusal: { ok: false, kind: "usage", reason: problem } };
  const declined = await approveFetch(request.source, request.yes, access);
  if (declined) return declined;
  return changed(await addPage(kb, request.source, await access.fetchPage(request.source), options), "Added");
}

/**
 * A page fetch is an `external` call, decided by the approval policy over a command's rules:
 * `--yes` or an allowance runs it, a person who can be asked is, and with nobody to ask it is
 * not run. Undefined when it may go ahead.
 */
async function approveFetch(source: string, yes: boolean, access: KbAccess): Promise<KbOutcome | undefined> {
  const host = new URL(source).host;
  const verdict = decideApproval(
    {
      tier: PAGE_FETCH.tier,
      allowance: access.allowances?.check(PAGE_FETCH) ?? { state: "not_allowed" },
    },
    commandApprovalRules({ yes, interactive: access.person.absent === undefined }),
  );
  if (verdict.action === "allow") return undefined;
  if (verdict.action === "deny")
    return { kind: "not_fetched", source, host, asked: false, reason: verdict.reason };
  const answer = await access.person.approveFetch(
    { url: source, host, reason: verdict.reason },
    access.signal,
  );
  if (!answer.approved) return { kind: "not_fetched", source, host, asked: true, reason: answer.reason };
  if (answer.remember) access.allowances?.allow(PAGE_FETCH, answer.remember);
  return undefined;
}

function changed(change: DocumentChange, verb: "Added" | "Removed"): KbOutcome {
  return change.ok ? { kind: "changed", verb, change } : { kind: "refused", refusal: change };
}

/** The sentence both front ends say after an add or a remove. */
export function describeChange(change: DocumentChanged, verb: "Added" | "Removed"): string {
  const how = change.replaced ? "Replaced" : verb;
  const where = verb === "Removed" ? "from" : change.replaced ? "in" : "to";
  return `${how} ${change.path} (${formatBytes(change.bytes)}) ${where} the knowledge base; indexed in ${change.report.durationMs} ms.`;
}

/** When the index was last written, in the person's local time to the minute (it is kept in ISO form). */
export function updatedWhen(updatedAt: string | undefined): string {
  if (updatedAt === undefined) return "never";
  const date = new Date(updatedAt);
  return Number.isNaN(date.getTime()) ? updatedAt : localMinute(date);
}
