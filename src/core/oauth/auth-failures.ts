import { SdkErrorCode, SdkHttpError, UnauthorizedError } from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";

/** What an authorization server's error text may add to a sentence (it can quote whole pages). */
const ERROR_TEXT_SHOWN = 300;

/** The SDK's "a sign-in is needed", also when a classified call failure carries it as its cause. */
export function isUnauthorized(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
    if (cause instanceof UnauthorizedError) return true;
  return false;
}

/** The SDK transport's 401 to a request sent with tokens it had just obtained. */
export function isFreshTokenRefused(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
    if (cause instanceof SdkHttpError && cause.code === SdkErrorCode.ClientHttpAuthentication) return true;
  return false;
}

/**
 * What is wrong with a metadata document the SDK refused (its schema's issues: field and why),
 * or undefined when `error` is not such a refusal. Duck-typed: the SDK's zod is not this one.
 */
export function metadataProblems(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "ZodError") return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const clauses = issues.slice(0, 4).map((issue: { path?: unknown; message?: unknown }) => {
    const field = Array.isArray(issue.path) ? issue.path.map(String).join(".") : "";
    return `${field || "the document"}: ${String(issue.message)}`;
  });
  const more = issues.length > 4 ? `; ${issues.length - 4} more` : "";
  return sanitizeForTerminal(`${clauses.join("; ")}${more}`).slice(0, ERROR_TEXT_SHOWN);
}

/**
 * An OAuth failure as a clause: the SDK quotes an authorization server's whole answer ("Raw
 * body: <html>…"), which is cut, and so is anything past a few hundred characters.
 */
export function shortError(error: unknown): string {
  const text = errorMessage(error).split(/\s*Raw body:/)[0] ?? "";
  const line = text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return line.length > ERROR_TEXT_SHOWN ? `${line.slice(0, ERROR_TEXT_SHOWN)}…` : line;
}
