import path from "node:path";
import { toolCatalogLaunch, writeJson } from "./fixtures.js";

/** Subjects of made-up servers, each with its own objects, so that every tool name says something. */
const SUBJECTS: ReadonlyArray<[string, string[]]> = [
  ["calendar", ["event", "meeting", "reminder", "availability"]],
  ["github", ["pull_request", "issue", "branch", "release"]],
  ["slack", ["message", "channel", "thread", "reaction"]],
  ["drive", ["file", "folder", "permission", "revision"]],
  ["crm", ["contact", "deal", "company", "note"]],
  ["billing", ["invoice", "payment", "refund", "subscription"]],
  ["weather", ["forecast", "alert", "radar", "station"]],
  ["maps", ["route", "place", "geocode", "traffic"]],
  ["jira", ["ticket", "sprint", "board", "epic"]],
  ["email", ["draft", "inbox", "label", "attachment"]],
  ["database", ["table", "query", "index", "backup"]],
  ["kubernetes", ["pod", "deployment", "service", "namespace"]],
  ["music", ["playlist", "track", "album", "artist"]],
  ["travel", ["flight", "hotel", "booking", "itinerary"]],
  ["finance", ["stock", "portfolio", "quote", "dividend"]],
  ["news", ["headline", "article", "source", "topic"]],
  ["recipes", ["recipe", "ingredient", "meal_plan", "shopping_list"]],
  ["fitness", ["workout", "step_count", "heart_rate", "goal"]],
  ["translate", ["text", "document", "glossary", "language"]],
  ["monitoring", ["metric", "dashboard", "incident", "alarm"]],
  ["storage", ["bucket", "object", "lifecycle_rule", "access_key"]],
  ["support", ["case", "macro", "customer", "satisfaction_survey"]],
  ["hr", ["employee", "leave_request", "payroll", "review"]],
  ["search", ["web_page", "image", "video", "site"]],
];
const VERBS = ["get", "list", "create", "update", "delete"] as const;

export interface CatalogConfig {
  /** mcpServers entries, one per subject. */
  servers: Record<string, { command: string; args: string[] }>;
  toolCount: number;
}

/**
 * Writes one catalog file per subject into `dir` (24 servers of 20 tools: 480 tools) and returns
 * the mcpServers entries that start them as real stdio processes.
 */
export async function writeToolCatalogs(dir: string): Promise<CatalogConfig> {
  const servers: CatalogConfig["servers"] = {};
  let toolCount = 0;
  for (const [subject, objects] of SUBJECTS) {
    const tools = objects.flatMap((object) =>
      VERBS.map((verb) => {
        const words = object.replace(/_/g, " ");
        return {
          name: `${verb}_${object}`,
          description: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${verb === "list" ? `the ${words}s` : `a ${words}`} in ${subject}.`,
          inputSchema: {
            type: "object",
            properties: { id: { type: "string", description: `The ${words}'s id` } },
          },
        };
      }),
    );
    toolCount += tools.length;
    const file = await writeJson(path.join(dir, `${subject}.catalog.json`), {
      name: subject,
      instructions: `The ${subject} service.`,
      tools,
    });
    servers[subject] = toolCatalogLaunch(file);
  }
  return { servers, toolCount };
}
