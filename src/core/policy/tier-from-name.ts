import { riskRank, type Tier, type TierDecision } from "./tiers.js";

/** Why a tool named for a write still asks: a name says what a tool does, not that it is cheap to undo. */
const WRITE_NEEDS_TRUST = "a write; low_risk needs trusted annotations or your tiers";

export type VerbKind = "read" | "write" | "destructive" | "network";

/**
 * Verbs that are as often a namespace or a noun (`azmcp_sql_db_list`, `refund_status`,
 * `python_get_version`): each reads as itself only when no read verb follows it in the action,
 * so `charge_card` and `run_sql` do not run unasked and `sql_list_tables` still reads.
 */
const WEAK_DESTRUCTIVE =
  "unlink charge withdraw refund purchase buy sell checkout grant ban kick reboot poweroff halt flush nuke approve rollback revert apply cancel suspend disable deprovision evict python powershell pwsh sql";
const WEAK_NETWORK = "dm dial";
const WEAK_VERBS = words(`${WEAK_DESTRUCTIVE} ${WEAK_NETWORK}`);

const VERBS: ReadonlyArray<{ kind: VerbKind; words: ReadonlySet<string> }> = [
  {
    kind: "destructive",
    words: words(
      `delete remove rm rmdir drop destroy purge wipe erase truncate clear clean prune discard alter kill terminate exec execute run shell command cmd bash eval sudo chmod chown deploy install uninstall format reset revoke move mv overwrite config configure settings restart shutdown migrate transfer pay merge force invoke trigger dispatch launch spawn ${WEAK_DESTRUCTIVE}`,
    ),
  },
  {
    kind: "network",
    words: words(
      `fetch http https request curl wget download upload push pull clone sync browse browser navigate url web internet send email mail sms post publish tweet slack webhook notify message share invite forward respond broadcast emit ${WEAK_NETWORK}`,
    ),
  },
  {
    kind: "write",
    words: words(
      "write create edit update set add append insert save put mkdir rename patch modify change replace comment reply tag label star unstar mark dismiss assign copy store upsert submit toggle commit init initialize stage fix repair refactor rewrite restore rebuild regenerate rotate reindex",
    ),
  },
  {
    kind: "read",
    words: words(
      "get list read search find query show describe view stat stats info tree count check inspect lookup look retrieve echo status explain validate diff blame preview sum summarize analyze resolve parse calculate compute compare help ping version time now",
    ),
  },
];

const READ_VERBS: ReadonlySet<string> = VERBS.find((entry) => entry.kind === "read")?.words ?? new Set();

const TIER_OF: Record<VerbKind, Tier> = {
  read: "read_only",
  write: "dangerous",
  destructive: "dangerous",
  network: "external",
};

/** Words that join two actions in one name (`create_or_update_file`): each action counts. */
const JOINERS = new Set(["and", "or", "then"]);

/** Two-word nouns whose first word is also a verb: `pull_request_read` reads, it does not pull. */
const NOUN_PHRASES: ReadonlyArray<readonly [string, string]> = [
  ["pull", "request"],
  ["pull", "requests"],
  ["merge", "request"],
  ["merge", "requests"],
];
/**
 * Nouns whose first word is a verb, read as nouns only after a read verb (`get_deploy_key`,
 * `list_restore_jobs`): elsewhere they act on the rest (`restore_job_version`,
 * `aws_restore_job_version` restore).
 */
const NOUN_PHRASES_AFTER_A_READ: ReadonlyArray<readonly [string, string]> = [
  ["deploy", "key"],
  ["deploy", "keys"],
  ["restore", "job"],
  ["restore", "jobs"],
  ["install", "command"],
];

/** A name's reading, with the kind of verb that gave it. */
export interface NameDecision extends TierDecision {
  verb: VerbKind;
}

/**
 * What a tool's name says it does. The name is read as one or more actions joined by "and", "or"
 * or "then"; an action's verb is its first word that is a known verb, so a namespace before it
 * (`git_push`, `issue_read`) is skipped and the words after it are its objects: in
 * `get-annotated-message`, "message" is a noun and the tool reads. A verb after a read verb may
 * act still (ACTS_ANYWHERE, ACTS_UNLESS_READ_ABOUT): `get_delete_all` deletes. The riskiest
 * action wins, a destructive verb over a write. A read verb may make a tool `read_only`; a write verb makes it
 * `dangerous`, because a name alone never lets a write run unasked.
 */
export function tierFromName(name: string): NameDecision | undefined {
  let best: NameDecision | undefined;
  for (const verb of actions(splitWords(name)).flatMap(actionVerbs)) {
    const decision = {
      tier: TIER_OF[verb.kind],
      reason: verb.kind === "write" ? `name: ${verb.word} (${WRITE_NEEDS_TRUST})` : `name: ${verb.word}`,
      verb: verb.kind,
    };
    const rank = riskRank(decision.tier) - (best ? riskRank(best.tier) : -1);
    if (rank > 0 || (rank === 0 && best?.verb === "write" && verb.kind === "destructive")) best = decision;
  }
  return best;
}

/** `deleteFile`, `delete_file`, `delete-file` and `files.delete` all give ["delete", "file"]. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

function actions(allWords: readonly string[]): string[][] {
  const result: string[][] = [[]];
  for (let i = 0; i < allWords.length; i += 1) {
    const word = allWords[i] ?? "";
    const next = allWords[i + 1];
    if (JOINERS.has(word)) {
      result.push([]);
    } else if (
      NOUN_PHRASES.some(([first, second]) => first === word && second === next) ||
      ((result.at(-1) ?? []).some((earlier) => READ_VERBS.has(earlier)) &&
        NOUN_PHRASES_AFTER_A_READ.some(([first, second]) => first === word && second === next))
    ) {
      i += 1;
    } else {
      result[result.length - 1]?.push(word);
    }
  }
  return result;
}

/**
 * After a read verb, a later verb acts too, so the riskiest reading of the name wins: one that is
 * never a noun wherever it stands (`get_destroy`, `find_replace`), and one that is often a noun
 * unless the word after it names what is read about it (`list_transfer_history`,
 * `check_write_access`); one that ends the name acts (`get_delete`): unsure, the tool asks.
 */
const ACTS_ANYWHERE = words("destroy purge wipe erase overwrite replace rm rmdir shred chmod chown sudo");
const ACTS_UNLESS_READ_ABOUT = words(
  "delete remove kill terminate uninstall transfer exec execute eval write drop truncate shutdown reset run format merge move send pay flush reboot unlink approve create update deploy revoke restart install prune migrate clear rollback revert disable suspend push publish upload fix repair refactor rewrite restore rebuild regenerate rotate mv insert upsert apply",
);
/** Words after such a verb that make it a noun: what is read about the action, which does not act. */
const READ_ABOUT = words(
  "history log logs summary summaries results result marker markers schedule length status stats count counts info details time date report reports audit permission permissions access instructions guide docs documentation steps plan plans options policy rules url urls link links target targets notifications point points suggestion suggestions versions candidates profile profiles mirror mirrors event events definition definitions refreshes",
);

/** An action's verb (its first), and after a read verb each later one that acts (see above). */
function actionVerbs(action: readonly string[]): Array<{ kind: VerbKind; word: string }> {
  const first = firstVerb(action);
  if (first?.kind !== "read") return first ? [first] : [];
  const start = action.indexOf(first.word) + 1;
  const acting = action.slice(start).flatMap((word, index) => {
    const next = action[start + index + 1];
    const acts =
      ACTS_ANYWHERE.has(word) ||
      (ACTS_UNLESS_READ_ABOUT.has(word) &&
        (next === undefined || (!READ_ABOUT.has(next) && !READ_VERBS.has(next))));
    return acts ? [{ kind: VERBS.find((entry) => entry.words.has(word))?.kind ?? "destructive", word }] : [];
  });
  return [first, ...acting];
}

function firstVerb(action: readonly string[]): { kind: VerbKind; word: string } | undefined {
  for (const [index, word] of action.entries()) {
    const verb = VERBS.find((entry) => entry.words.has(word));
    if (!verb) continue;
    if (WEAK_VERBS.has(word) && action.slice(index + 1).some((after) => READ_VERBS.has(after))) continue;
    return { kind: verb.kind, word };
  }
  return undefined;
}

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}
