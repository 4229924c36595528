/**
 * The SDK reports a result that fails its schema as "Invalid result for tools/list: " followed by
 * the validator's issue list as indented JSON — twenty lines a person has to read like a stack
 * trace. This keeps the sentence and turns the list into `path: message` pairs.
 */
const EMBEDDED_ISSUES = /^(?<lead>[^\n[]*?): (?<list>\[\s*\{[\s\S]*\}\s*\])$/;

interface Issue {
  path?: unknown;
  message?: unknown;
}

/** `message` with an embedded validator issue list made one line, or `message` unchanged. */
export function compactSchemaIssues(message: string): string {
  const match = EMBEDDED_ISSUES.exec(message);
  if (!match?.groups) return message;
  const issues = parseIssues(match.groups.list ?? "");
  if (!issues) return message;
  return `${match.groups.lead ?? ""}: ${issues.map(describeIssue).join("; ")}`;
}

function parseIssues(text: string): Issue[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    return parsed.every((issue) => typeof issue === "object" && issue !== null && "message" in issue)
      ? (parsed as Issue[])
      : undefined;
  } catch {
    return undefined;
  }
}

function describeIssue(issue: Issue): string {
  const path = Array.isArray(issue.path) ? issue.path.map(String).join(".") : "";
  const message = String(issue.message).replace(/^Invalid input: /, "");
  return path === "" ? message : `${path}: ${message}`;
}
