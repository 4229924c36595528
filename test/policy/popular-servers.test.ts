import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyTier, type ToolAnnotationsLike } from "../../src/core/policy/classify-tier.js";
import type { Tier } from "../../src/core/policy/tiers.js";
import { REPO_ROOT } from "../support/fixtures.js";

/**
 * The tier of every tool that ten published MCP servers list, as a careful person would want it,
 * with the reason mcpterm shows. The lists are in tool-lists/, one file per server, each naming its
 * source and version. A server changing its list, or a rule changing a tier, shows up here.
 */

interface ListedTool {
  name: string;
  annotations?: ToolAnnotationsLike;
  inputSchema?: unknown;
}

interface ToolList {
  server: string;
  version: string;
  source: string;
  tools: ListedTool[];
}

type Row = [name: string, tier: Tier, reason: string];

const LISTS = path.join(REPO_ROOT, "test/policy/tool-lists");
const W = "(a write; low_risk needs trusted annotations or your tiers)";
const UNTRUSTED_WRITE =
  "destructiveHint: false (untrusted server; low_risk needs trusted annotations or your tiers)";
const NOT_READ_ONLY = "readOnlyHint: false (destructiveHint defaults to true)";

function rows(tier: Tier, reason: string, names: string[]): Row[] {
  return names.map((name) => [name, tier, reason]);
}

function toolList(file: string): ToolList {
  return JSON.parse(readFileSync(path.join(LISTS, file), "utf8")) as ToolList;
}

function tool(file: string, name: string): ListedTool {
  const found = toolList(file).tools.find((listed) => listed.name === name);
  if (!found) throw new Error(`${file} has no tool ${name}`);
  return found;
}

function classify(listed: ListedTool, trustedServer: boolean) {
  return classifyTier({
    name: listed.name,
    ...(listed.annotations === undefined ? {} : { annotations: listed.annotations }),
    inputSchema: listed.inputSchema,
    trustedServer,
  });
}

/** Each server as it is configured by default: not trusted. */
const UNTRUSTED: Record<string, Row[]> = {
  "memory.json": [
    // Adding to the graph is cheap to undo, but only a trusted server's word says so.
    ...rows("dangerous", UNTRUSTED_WRITE, ["create_entities", "create_relations", "add_observations"]),
    ...rows("dangerous", "name: delete", ["delete_entities", "delete_observations", "delete_relations"]),
    ...rows("read_only", "readOnlyHint", ["read_graph", "search_nodes", "open_nodes"]),
  ],
  "filesystem.json": [
    ...rows("read_only", "readOnlyHint", [
      "read_file",
      "read_text_file",
      "read_media_file",
      "read_multiple_files",
      "list_directory",
      "list_directory_with_sizes",
      "directory_tree",
      "search_files",
      "get_file_info",
      "list_allowed_directories",
    ]),
    ...rows("dangerous", "destructiveHint", ["write_file", "edit_file"]),
    ...rows("dangerous", "name: move", ["move_file"]),
    ...rows("dangerous", UNTRUSTED_WRITE, ["create_directory"]),
  ],
  "everything.json": [
    // "message" is the object of "get", not a verb; the annotations agree that it reads.
    ...rows("read_only", "readOnlyHint", [
      "echo",
      "get-annotated-message",
      "get-env",
      "get-resource-links",
      "get-resource-reference",
      "get-structured-content",
      "get-sum",
      "get-tiny-image",
    ]),
    // "trigger" starts something; an untrusted readOnlyHint cannot lower what the name says.
    ...rows("dangerous", "name: trigger; readOnlyHint ignored (untrusted server)", [
      "trigger-long-running-operation",
    ]),
    ...rows("external", "openWorldHint", ["gzip-file-as-resource"]),
    ...rows("dangerous", UNTRUSTED_WRITE, [
      "toggle-simulated-logging",
      "toggle-subscriber-updates",
      "simulate-research-query",
    ]),
  ],
  "pdf.json": [
    ...rows("read_only", "name: list", ["list_pdfs"]),
    // Reads a byte range of a local file or of any HTTPS URL.
    ...rows("read_only", "name: read", ["read_pdf_bytes"]),
    // No verb mcpterm knows and no annotations: ask.
    ...rows("dangerous", "default: nothing says it is safe", ["display_pdf", "poll_pdf_commands"]),
    ...rows("dangerous", "argument action: remove_annotations", ["interact"]),
    // Writes a file; was low_risk on the word "save", and ran unasked.
    ...rows("dangerous", `name: save ${W}`, ["save_pdf"]),
    // The verb is "submit"; submit_save_data was low_risk on the word "save".
    ...rows("dangerous", `name: submit ${W}`, [
      "submit_page_data",
      "submit_save_data",
      "submit_viewer_state",
    ]),
  ],
  "git-cyanheads.json": [
    ...rows("read_only", "readOnlyHint", [
      "git_blame",
      "git_changelog_analyze",
      "git_diff",
      "git_log",
      "git_reflog",
      "git_show",
      "git_status",
      "git_wrapup_instructions",
    ]),
    // The server says only readOnlyHint: false; per the spec such a tool may destroy.
    ...rows("dangerous", NOT_READ_ONLY, [
      "git_add",
      "git_cherry_pick",
      "git_commit",
      "git_init",
      "git_rebase",
      "git_set_working_dir",
    ]),
    ...rows("dangerous", "name: checkout", ["git_checkout"]),
    ...rows("dangerous", "name: clean", ["git_clean"]),
    ...rows("dangerous", "name: clear", ["git_clear_working_dir"]),
    ...rows("dangerous", "name: merge", ["git_merge"]),
    ...rows("dangerous", "name: reset", ["git_reset"]),
    // Named for a write or for nothing, but a mode deletes; git_tag was low_risk by "tag".
    ...rows("dangerous", "argument mode: delete", ["git_branch", "git_tag"]),
    ...rows("dangerous", "argument mode: remove", ["git_remote", "git_worktree"]),
    ...rows("dangerous", "argument mode: drop", ["git_stash"]),
    // They reach remotes; push was dangerous, and --approve dangerous would have let it push.
    ...rows("external", "name: clone", ["git_clone"]),
    ...rows("external", "name: fetch", ["git_fetch"]),
    ...rows("external", "name: pull", ["git_pull"]),
    ...rows("external", "name: push", ["git_push"]),
  ],
  "git-reference.json": [
    ...rows("read_only", "readOnlyHint", [
      "git_status",
      "git_diff_unstaged",
      "git_diff_staged",
      "git_diff",
      "git_log",
      "git_show",
      "git_branch",
    ]),
    ...rows("dangerous", UNTRUSTED_WRITE, ["git_commit", "git_add", "git_create_branch"]),
    // A checkout may overwrite the working tree: the name says so, whatever the server says.
    ...rows("dangerous", "name: checkout", ["git_checkout"]),
    ...rows("dangerous", "name: reset", ["git_reset"]),
  ],
  "postgres.json": [
    // The server runs it in a read-only transaction.
    ...rows("read_only", "name: query", ["query"]),
  ],
  "sql-executeautomation.json": [
    ...rows("read_only", "name: read", ["read_query"]),
    // "export" is no verb mcpterm knows, so "query" decides; the server allows only SELECT here.
    ...rows("read_only", "name: query", ["export_query"]),
    ...rows("read_only", "name: list", ["list_tables", "list_insights"]),
    ...rows("read_only", "name: describe", ["describe_table"]),
    ...rows("dangerous", `name: write ${W}`, ["write_query"]),
    ...rows("dangerous", `name: create ${W}`, ["create_table"]),
    ...rows("dangerous", `name: append ${W}`, ["append_insight"]),
    ...rows("dangerous", "name: alter", ["alter_table"]),
    ...rows("dangerous", "name: drop", ["drop_table"]),
  ],
  "github-npm.json": [
    ...rows("read_only", "name: search", [
      "search_repositories",
      "search_code",
      "search_issues",
      "search_users",
    ]),
    // "pull request" is a noun: these read, they do not pull or send a request.
    ...rows("read_only", "name: get", [
      "get_file_contents",
      "get_issue",
      "get_pull_request",
      "get_pull_request_files",
      "get_pull_request_status",
      "get_pull_request_comments",
      "get_pull_request_reviews",
    ]),
    ...rows("read_only", "name: list", ["list_commits", "list_issues", "list_pull_requests"]),
    // Writes on GitHub; nothing in the name says "network", so dangerous rather than external.
    ...rows("dangerous", `name: create ${W}`, [
      "create_or_update_file",
      "create_repository",
      "create_issue",
      "create_pull_request",
      "create_branch",
      "create_pull_request_review",
    ]),
    ...rows("dangerous", `name: update ${W}`, ["update_issue", "update_pull_request_branch"]),
    ...rows("dangerous", `name: add ${W}`, ["add_issue_comment"]),
    ...rows("dangerous", "name: merge", ["merge_pull_request"]),
    ...rows("dangerous", "default: nothing says it is safe", ["fork_repository"]),
    ...rows("external", "name: push", ["push_files"]),
  ],
  "github.json": [
    ...rows("read_only", "readOnlyHint", [
      "actions_get",
      // Its workflow-run filter may ask for runs of the event "delete": a filter, not a mode.
      "actions_list",
      "find_duplicate",
      "get_code_quality_finding",
      "get_code_scanning_alert",
      "get_commit",
      "get_dependabot_alert",
      "get_discussion",
      "get_discussion_comments",
      "get_file_blame",
      "get_file_contents",
      "get_gist",
      "get_global_security_advisory",
      "get_job_logs",
      "get_label",
      "get_latest_release",
      "get_me",
      "get_notification_details",
      "get_release_by_tag",
      "get_repository_tree",
      "get_secret_scanning_alert",
      "get_tag",
      "get_team_members",
      "get_teams",
      "issue_dependency_read",
      "issue_read",
      "list_branches",
      "list_code_scanning_alerts",
      "list_commits",
      "list_dependabot_alerts",
      "list_discussion_categories",
      "list_discussions",
      "list_gists",
      "list_global_security_advisories",
      "list_issue_fields",
      "list_issue_types",
      "list_issues",
      "list_label",
      "list_notifications",
      "list_org_repository_security_advisories",
      "list_pull_requests",
      "list_releases",
      "list_repository_collaborators",
      "list_repository_security_advisories",
      "list_secret_scanning_alerts",
      "list_starred_repositories",
      "list_tags",
      "projects_get",
      "projects_list",
      "pull_request_read",
      "search_code",
      "search_commits",
      "search_issues",
      "search_orgs",
      "search_pull_requests",
      "search_repositories",
      "search_users",
      "ui_get",
    ]),
    // Writes on GitHub that do not state openWorldHint: they ask, as dangerous.
    ...rows("dangerous", NOT_READ_ONLY, [
      "add_comment_to_pending_review",
      "add_issue_comment",
      "add_reply_to_pull_request_comment",
      "assign_copilot_to_issue",
      "assign_copilot_to_issue_with_intent",
      "create_branch",
      "create_gist",
      "create_or_update_file",
      "create_pull_request",
      "create_repository",
      "dismiss_notification",
      "fork_repository",
      "issue_write",
      "mark_all_notifications_read",
      "star_repository",
      "sub_issue_write",
      "unstar_repository",
      "update_gist",
      "update_pull_request",
      "update_pull_request_branch",
    ]),
    ...rows("external", "openWorldHint", [
      "add_issue_comment_reaction",
      "add_issue_reaction",
      "add_pull_request_review_comment",
      "add_pull_request_review_comment_reaction",
      "add_sub_issue",
      "create_issue",
      "create_pull_request_review",
      // Destructive and external: external wins.
      "delete_pending_pull_request_review",
      "remove_sub_issue",
      "reprioritize_sub_issue",
      "resolve_review_thread",
      "set_issue_fields",
      "submit_pending_pull_request_review",
      "unresolve_review_thread",
      "update_issue_assignees",
      "update_issue_body",
      "update_issue_labels",
      "update_issue_milestone",
      "update_issue_state",
      "update_issue_title",
      "update_issue_type",
      "update_pull_request_body",
      "update_pull_request_draft_state",
      "update_pull_request_state",
      "update_pull_request_title",
    ]),
    ...rows("external", "name: push", ["push_files"]),
    ...rows("external", "name: request", ["request_copilot_review", "request_pull_request_reviewers"]),
    ...rows("dangerous", "name: delete", ["delete_file", "delete_repository"]),
    ...rows("dangerous", "name: merge", ["merge_pull_request"]),
    ...rows("dangerous", "name: run", ["actions_run_trigger"]),
    ...rows("dangerous", "argument method: delete", ["discussion_comment_write", "label_write"]),
    ...rows("dangerous", "argument method: remove", ["issue_dependency_write"]),
    ...rows("dangerous", "argument method: delete_project_item", ["projects_write"]),
    ...rows("dangerous", "argument method: delete_pending", ["pull_request_review_write"]),
    ...rows("dangerous", "argument action: delete", [
      "manage_notification_subscription",
      "manage_repository_notification_subscription",
    ]),
  ],
};

/** The same definitions from a server marked `trust: true`: its annotations decide. */
const TRUSTED: Array<[file: string, name: string, tier: Tier, reason: string]> = [
  ["memory.json", "create_entities", "low_risk", "destructiveHint: false"],
  ["filesystem.json", "create_directory", "low_risk", "destructiveHint: false"],
  ["filesystem.json", "write_file", "dangerous", "destructiveHint"],
  ["everything.json", "toggle-simulated-logging", "low_risk", "destructiveHint: false"],
  ["git-reference.json", "git_commit", "low_risk", "destructiveHint: false"],
  ["git-reference.json", "git_reset", "dangerous", "destructiveHint"],
  // Trusted annotations say what they say: not read-only, so possibly destructive.
  ["git-cyanheads.json", "git_tag", "dangerous", NOT_READ_ONLY],
  // They do not say the world is closed, so the network verb stands.
  ["git-cyanheads.json", "git_push", "external", "name: push"],
  ["github.json", "actions_list", "read_only", "readOnlyHint"],
  ["github.json", "create_issue", "external", "openWorldHint"],
  ["github.json", "create_pull_request", "dangerous", NOT_READ_ONLY],
  // Trust without annotations changes nothing: a name alone never makes a write low_risk.
  ["pdf.json", "save_pdf", "dangerous", `name: save ${W}`],
  ["sql-executeautomation.json", "create_table", "dangerous", `name: create ${W}`],
];

describe("the tiers of popular MCP servers' tools", () => {
  it("has a table for every captured tool list", () => {
    expect(Object.keys(UNTRUSTED).sort()).toEqual(readdirSync(LISTS).sort());
  });

  describe.each(Object.entries(UNTRUSTED))("%s, untrusted", (file, expected) => {
    const list = toolList(file);

    it("names its source and version", () => {
      expect(
        [list.server, list.version, list.source].every((field) => typeof field === "string" && field !== ""),
      ).toBe(true);
    });

    it("has one row for each tool the server lists", () => {
      expect(expected.map(([name]) => name).sort()).toEqual(list.tools.map((listed) => listed.name).sort());
    });

    it.each(expected)("%s -> %s (%s)", (name, tier, reason) => {
      expect(classify(tool(file, name), false)).toEqual({ tier, reason });
    });
  });

  it.each(TRUSTED)("%s %s, trusted -> %s (%s)", (file, name, tier, reason) => {
    expect(classify(tool(file, name), true)).toEqual({ tier, reason });
  });

  it("lowers a trusted write_file that says destructiveHint: false to low_risk", () => {
    const writeFile = tool("filesystem.json", "write_file");
    const annotations = { ...writeFile.annotations, destructiveHint: false };
    expect(classify({ ...writeFile, annotations }, true)).toEqual({
      tier: "low_risk",
      reason: "destructiveHint: false",
    });
    expect(classify({ ...writeFile, annotations }, false)).toEqual({
      tier: "dangerous",
      reason: UNTRUSTED_WRITE,
    });
  });
});
