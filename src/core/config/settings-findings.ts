import { TIERS, isTier } from "../policy/tiers.js";
import { isJsonObject } from "./config-fields.js";
import { describeDuplicateKey, findDuplicateKey } from "./json-duplicate-keys.js";
import { unknownKeySentences } from "./unknown-keys.js";

/** How JSON files write notes to their reader: keys no program reads. */
const NOTE_KEY = /^(?:\/\/|_|\$|#)/;

/** The top-level keys mcpterm reads in the user's settings.json. */
const SETTINGS_KEYS = ["approval", "trustedConfigs", "allowances", "telemetry"] as const;
const TELEMETRY_TYPES: Readonly<Record<string, "boolean" | "string" | "strings" | "milliseconds">> = {
  enabled: "boolean",
  endpoint: "string",
  protocol: "string",
  headers: "strings",
  serviceName: "string",
  resourceAttributes: "strings",
  captureContent: "boolean",
  exitFlushMs: "milliseconds",
};
const TYPE_WORDS = {
  boolean: "true or false",
  string: "a text",
  strings: "an object of texts",
  milliseconds: "a number of milliseconds, 0 or more",
} as const;

/**
 * What the user's settings hold that mcpterm does not use as written, one sentence each: a
 * key written twice (JSON keeps the last), a misspelled key (`aproval`), an `approval.auto` that
 * is no list of tiers or names one that is none (`dangerus`), a telemetry field of the wrong
 * kind. Each is ignored, which fails closed (nothing runs unasked that was not listed right),
 * but the person who wrote it believes it holds. Other keys are kept without a word: mcpterm
 * keeps what it does not manage when it rewrites the file.
 */
export function settingsFindings(text: string, record: Readonly<Record<string, unknown>>): string[] {
  const findings: string[] = [];
  const duplicate = findDuplicateKey(text);
  if (duplicate) findings.push(describeDuplicateKey(duplicate));
  findings.push(...unknownKeySentences(record, "", { known: SETTINGS_KEYS, nearMissesOnly: true }));
  findings.push(...approvalFindings(record.approval));
  findings.push(...telemetryFindings(record.telemetry));
  return findings;
}

function approvalFindings(approval: unknown): string[] {
  if (approval === undefined) return [];
  if (!isJsonObject(approval))
    return ['approval must be an object such as { "auto": ["read_only"] }; it is ignored.'];
  // `"Auto"`, `"autoApprove"`: the list the person meant is not read. A note (`"//"`, `"_note"`,
  // `"$comment"`) is no typo.
  const keys = Object.fromEntries(Object.entries(approval).filter(([key]) => !NOTE_KEY.test(key)));
  const findings = unknownKeySentences(keys, "approval", { known: ["auto"] });
  const { auto } = approval;
  if (auto === undefined) return findings;
  const tiers = `the tiers are ${TIERS.join(", ")}`;
  if (!Array.isArray(auto))
    return [...findings, `approval.auto must be a list of tiers (${tiers}); it is ignored.`];
  for (const entry of auto)
    if (typeof entry !== "string" || !isTier(entry))
      findings.push(
        `approval.auto lists ${JSON.stringify(entry)}, which is no tier (${tiers}); it is ignored.`,
      );
  return findings;
}

function telemetryFindings(telemetry: unknown): string[] {
  if (telemetry === undefined) return [];
  if (!isJsonObject(telemetry)) return ["telemetry must be an object; it is ignored."];
  const findings = unknownKeySentences(telemetry, "telemetry", { known: Object.keys(TELEMETRY_TYPES) });
  for (const [key, type] of Object.entries(TELEMETRY_TYPES)) {
    const value = telemetry[key];
    if (value !== undefined && !hasType(value, type))
      findings.push(`telemetry.${key} must be ${TYPE_WORDS[type]}; it is ignored.`);
  }
  return findings;
}

function hasType(value: unknown, type: keyof typeof TYPE_WORDS): boolean {
  if (type === "boolean") return typeof value === "boolean";
  if (type === "string") return typeof value === "string";
  if (type === "milliseconds") return typeof value === "number" && value >= 0;
  return isJsonObject(value) && Object.values(value).every((item) => typeof item === "string");
}
