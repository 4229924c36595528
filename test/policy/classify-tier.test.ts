import { describe, expect, it } from "vitest";
import { classifyTier, type TierInput } from "../../src/core/policy/classify-tier.js";
import { splitWords } from "../../src/core/policy/tier-from-name.js";

const untrusted = (name: string, extra: Partial<TierInput> = {}): TierInput => ({
  name,
  trustedServer: false,
  ...extra,
});
const trusted = (name: string, extra: Partial<TierInput> = {}): TierInput => ({
  name,
  trustedServer: true,
  ...extra,
});
const modes = (...values: string[]) => ({ type: "object", properties: { mode: { enum: values } } });
const WRITE = "(a write; low_risk needs trusted annotations or your tiers)";
const UNTRUSTED_WRITE = "(untrusted server; low_risk needs trusted annotations or your tiers)";

describe("classifyTier", () => {
  it.each([
    // The user's override wins over everything.
    [untrusted("delete_everything", { override: "read_only" }), "read_only", "config"],
    [untrusted("save_pdf", { override: "low_risk" }), "low_risk", "config"],
    [untrusted("git_tag", { override: "low_risk", inputSchema: modes("delete") }), "low_risk", "config"],
    [
      untrusted("read_file", { override: "dangerous", annotations: { readOnlyHint: true } }),
      "dangerous",
      "config",
    ],
    // Annotations decide when the name does not suggest a higher tier.
    [untrusted("frobnicate", { annotations: { readOnlyHint: true } }), "read_only", "readOnlyHint"],
    [untrusted("frobnicate", { annotations: { destructiveHint: true } }), "dangerous", "destructiveHint"],
    [
      untrusted("frobnicate", { annotations: { readOnlyHint: false } }),
      "dangerous",
      "readOnlyHint: false (destructiveHint defaults to true)",
    ],
    [
      untrusted("frobnicate", { annotations: { openWorldHint: true, readOnlyHint: true } }),
      "external",
      "openWorldHint",
    ],
    // An untrusted server's word that a tool only adds things does not make it run unasked.
    [
      untrusted("frobnicate", { annotations: { readOnlyHint: false, destructiveHint: false } }),
      "dangerous",
      `destructiveHint: false ${UNTRUSTED_WRITE}`,
    ],
    // Untrusted annotations may raise a tier...
    [untrusted("read_file", { annotations: { destructiveHint: true } }), "dangerous", "destructiveHint"],
    [untrusted("read_file", { annotations: { openWorldHint: true } }), "external", "openWorldHint"],
    [
      untrusted("list_items", { annotations: { readOnlyHint: false } }),
      "dangerous",
      "readOnlyHint: false (destructiveHint defaults to true)",
    ],
    // ...but never lower it below what the name suggests (money, access, machines: below).
    [untrusted("dm_user", { annotations: { readOnlyHint: true } }), "external", "name: dm"],
    [
      untrusted("delete_everything", { annotations: { readOnlyHint: true } }),
      "dangerous",
      "name: delete; readOnlyHint ignored (untrusted server)",
    ],
    [
      untrusted("save_note", { annotations: { readOnlyHint: true } }),
      "dangerous",
      `name: save ${WRITE}; readOnlyHint ignored (untrusted server)`,
    ],
    [untrusted("send_email", { annotations: { readOnlyHint: true } }), "external", "name: send"],
    // The SDK's arithmetic example is caught too: "add" is a write verb, and the server is not trusted.
    [
      untrusted("add", { annotations: { readOnlyHint: true } }),
      "dangerous",
      `name: add ${WRITE}; readOnlyHint ignored (untrusted server)`,
    ],
    // A trusted server's annotations decide...
    [trusted("delete_cache", { annotations: { readOnlyHint: true } }), "read_only", "readOnlyHint"],
    [
      trusted("write_file", { annotations: { readOnlyHint: false, destructiveHint: false } }),
      "low_risk",
      "destructiveHint: false",
    ],
    [
      trusted("git_tag", {
        annotations: { readOnlyHint: false, destructiveHint: false },
        inputSchema: modes("delete"),
      }),
      "low_risk",
      "destructiveHint: false",
    ],
    [
      trusted("fetch_page", { annotations: { readOnlyHint: true, openWorldHint: false } }),
      "read_only",
      "readOnlyHint",
    ],
    // ...except that a network verb stays external unless they say the world is closed.
    [trusted("git_push", { annotations: { readOnlyHint: false } }), "external", "name: push"],
    // Without annotations, even a trusted server's write asks.
    [trusted("save_pdf"), "dangerous", `name: save ${WRITE}`],
    // A name alone may say read_only, never low_risk.
    [untrusted("list_directory"), "read_only", "name: list"],
    [untrusted("getWeather"), "read_only", "name: get"],
    [untrusted("save_pdf"), "dangerous", `name: save ${WRITE}`],
    [untrusted("create_issue"), "dangerous", `name: create ${WRITE}`],
    [untrusted("run-command"), "dangerous", "name: run"],
    [untrusted("files.remove"), "dangerous", "name: remove"],
    // Network verbs mean external, and external outranks dangerous.
    [untrusted("fetch"), "external", "name: fetch"],
    [untrusted("git_push"), "external", "name: push"],
    [untrusted("git_pull"), "external", "name: pull"],
    [untrusted("git_clone"), "external", "name: clone"],
    [untrusted("git_push", { inputSchema: modes("force") }), "external", "name: push"],
    [untrusted("delete_and_send"), "external", "name: send"],
    // The first verb of each action decides; the words after it are its objects.
    [untrusted("get-annotated-message"), "read_only", "name: get"],
    [untrusted("issue_read"), "read_only", "name: read"],
    [untrusted("pull_request_read"), "read_only", "name: read"],
    [untrusted("get_pull_request"), "read_only", "name: get"],
    [untrusted("create_or_update_file"), "dangerous", `name: create ${WRITE}`],
    [untrusted("search_and_replace"), "dangerous", `name: replace ${WRITE}`],
    // ...but a verb seldom a noun acts wherever it stands: the riskiest reading wins.
    [untrusted("get_delete_all"), "dangerous", "name: delete"],
    [untrusted("getDestroy"), "dangerous", "name: destroy"],
    [untrusted("list_kill_processes"), "dangerous", "name: kill"],
    [untrusted("show_drop_table"), "dangerous", "name: drop"],
    [untrusted("get_transfer_funds"), "dangerous", "name: transfer"],
    [untrusted("read_write_file"), "dangerous", `name: write ${WRITE}`],
    [untrusted("find_replace"), "dangerous", `name: replace ${WRITE}`],
    [untrusted("get_message"), "read_only", "name: get"],
    [untrusted("list_settings"), "read_only", "name: list"],
    [untrusted("get_deleted_items"), "read_only", "name: get"],
    [untrusted("get_send_email"), "external", "name: send"],
    [untrusted("get_reset_password"), "dangerous", "name: reset"],
    [untrusted("get_run_command"), "dangerous", "name: run"],
    [untrusted("get_update_all"), "dangerous", `name: update ${WRITE}`],
    // ...but not one whose object is what is read about it, nor one with no object at all.
    [untrusted("list_transfer_history"), "read_only", "name: list"],
    [untrusted("check_write_access"), "read_only", "name: check"],
    [untrusted("list_delete_markers"), "read_only", "name: list"],
    [untrusted("search_exec_logs"), "read_only", "name: search"],
    // Unsure, it asks: a verb that ends the name acts, as does one before what it acts on.
    [untrusted("get_delete"), "dangerous", "name: delete"],
    [untrusted("query_execute"), "dangerous", "name: execute"],
    [untrusted("get_reset_config"), "dangerous", "name: reset"],
    [untrusted("list_kill_jobs"), "dangerous", "name: kill"],
    // Deploying, revoking, installing, pruning, pushing after a read verb act too, as do the
    // actions a joined name adds (`find_and_fix`); a word naming what is read about them does not.
    [untrusted("get_deploy"), "dangerous", "name: deploy"],
    [untrusted("get_revoke"), "dangerous", "name: revoke"],
    [untrusted("check_rotate_keys"), "dangerous", `name: rotate ${WRITE}`],
    [untrusted("get_restart"), "dangerous", "name: restart"],
    [untrusted("get_install"), "dangerous", "name: install"],
    [untrusted("get_mv"), "dangerous", "name: mv"],
    [untrusted("get_clear_cache"), "dangerous", "name: clear"],
    [untrusted("list_prune"), "dangerous", "name: prune"],
    [untrusted("check_migrate"), "dangerous", "name: migrate"],
    [untrusted("get_push"), "external", "name: push"],
    [untrusted("get_publish"), "external", "name: publish"],
    [untrusted("get_upload"), "external", "name: upload"],
    [untrusted("find_and_fix"), "dangerous", `name: fix ${WRITE}`],
    [untrusted("analyze_and_refactor"), "dangerous", `name: refactor ${WRITE}`],
    [untrusted("check_and_repair"), "dangerous", `name: repair ${WRITE}`],
    [untrusted("get_deploy_status"), "read_only", "name: get"],
    [untrusted("list_install_instructions"), "read_only", "name: list"],
    [untrusted("get_upload_url"), "read_only", "name: get"],
    [untrusted("get_push_notifications"), "read_only", "name: get"],
    [untrusted("get_rollback_plan"), "read_only", "name: get"],
    [untrusted("list_restore_points"), "read_only", "name: list"],
    [untrusted("get_fix_suggestions"), "read_only", "name: get"],
    [untrusted("list_deploy_keys"), "read_only", "name: list"],
    [untrusted("restore_job_version"), "dangerous", `name: restore ${WRITE}`],
    [untrusted("deploy_keys_from_list"), "dangerous", "name: deploy"],
    [untrusted("aws_restore_job_version"), "dangerous", `name: restore ${WRITE}`],
    [untrusted("npm_install_command_version"), "dangerous", "name: install"],
    [untrusted("get_restore_job"), "read_only", "name: get"],
    [untrusted("get_install_command"), "read_only", "name: get"],
    [untrusted("get_mv_definition"), "read_only", "name: get"],
    [untrusted("list_push_mirrors"), "read_only", "name: list"],
    [untrusted("query_insert_rows"), "dangerous", `name: insert ${WRITE}`],
    [untrusted("get_apply"), "dangerous", "name: apply"],
    // Argument values that name a destructive mode count, at any depth.
    [
      untrusted("git_tag", { inputSchema: modes("list", "create", "delete") }),
      "dangerous",
      "argument mode: delete",
    ],
    [untrusted("list_tags", { inputSchema: modes("list", "delete") }), "dangerous", "argument mode: delete"],
    [
      untrusted("view", {
        inputSchema: {
          properties: { commands: { items: { properties: { action: { enum: ["remove_annotations"] } } } } },
        },
      }),
      "dangerous",
      "argument commands[].action: remove_annotations",
    ],
    [
      untrusted("branches", { inputSchema: { oneOf: [{ properties: { op: { const: "drop" } } }] } }),
      "dangerous",
      "argument op: drop",
    ],
    // ...but not values that only filter what a read returns.
    [
      untrusted("list_runs", {
        inputSchema: { properties: { runs_filter: { properties: { event: { enum: ["delete"] } } } } },
      }),
      "read_only",
      "name: list",
    ],
    [untrusted("list_tags", { inputSchema: modes("list", "deleted") }), "read_only", "name: list"],
    // On a tie the reason names what tells most: a destructive verb, then arguments, then annotations.
    [untrusted("create_and_delete"), "dangerous", "name: delete"],
    [untrusted("delete_entities", { annotations: { destructiveHint: true } }), "dangerous", "name: delete"],
    [
      untrusted("actions_run", { annotations: { destructiveHint: true }, inputSchema: modes("delete_logs") }),
      "dangerous",
      "name: run",
    ],
    [
      untrusted("git_tag", { annotations: { readOnlyHint: false }, inputSchema: modes("delete") }),
      "dangerous",
      "argument mode: delete",
    ],
    [untrusted("get_sum", { annotations: { readOnlyHint: true } }), "read_only", "readOnlyHint"],
    // Nothing says it is safe: dangerous.
    [untrusted("frobnicate"), "dangerous", "default: nothing says it is safe"],
    [
      untrusted("frobnicate", { annotations: { idempotentHint: true } }),
      "dangerous",
      "default: nothing says it is safe",
    ],
  ])("%j -> %s (%s)", (input, tier, reason) => {
    expect(classifyTier(input)).toEqual({ tier, reason });
  });

  // ...while the same words as a namespace or noun before a read verb still read.
  it.each([
    ["azmcp_sql_db_list", "read_only"],
    ["sql_list_tables", "read_only"],
    ["python_get_version", "read_only"],
    ["refund_status", "read_only"],
    ["checkout_get_session", "read_only"],
    ["apply_preview", "read_only"],
    ["dm_list", "read_only"],
  ])("%s claiming readOnlyHint -> %s", (name, tier) => {
    expect(classifyTier(untrusted(name, { annotations: { readOnlyHint: true } })).tier).toBe(tier);
  });

  // A name that speaks of money, access or a machine is never lowered by an untrusted readOnlyHint.
  it.each([
    ["unlink", "unlink"],
    ["charge_card", "charge"],
    ["withdraw", "withdraw"],
    ["refund_order", "refund"],
    ["grant_access", "grant"],
    ["ban_user", "ban"],
    ["reboot", "reboot"],
    ["flush_db", "flush"],
    ["apply_migration", "apply"],
    ["approve_pr", "approve"],
    ["rollback", "rollback"],
    ["run_sql", "run"],
    ["python", "python"],
  ])("%s claiming readOnlyHint -> dangerous (name: %s)", (name, verb) => {
    expect(classifyTier(untrusted(name, { annotations: { readOnlyHint: true } }))).toEqual({
      tier: "dangerous",
      reason: `name: ${verb}; readOnlyHint ignored (untrusted server)`,
    });
  });

  it.each([
    ["deleteFile", ["delete", "file"]],
    ["delete_file", ["delete", "file"]],
    ["files.delete-all", ["files", "delete", "all"]],
    ["HTTPRequest", ["httprequest"]],
  ])("splits %s into words", (name, words) => {
    expect(splitWords(name)).toEqual(words);
  });
});
