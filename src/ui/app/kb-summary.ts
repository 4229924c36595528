import type { KnowledgeAccess } from "../../core/kb/index.js";
import type { KbSummary } from "../transcript/transcript-types.js";

/** What the status line shows of the knowledge base as it is now: its size is read each time. */
export function kbSummaryOf(access: KnowledgeAccess): KbSummary {
  switch (access.state) {
    case "loading":
      return { state: "loading" };
    case "off":
      return { state: "off" };
    case "ready": {
      const stats = access.kb.stats();
      return { state: "ready", chunks: stats.chunks, files: stats.files };
    }
  }
}
