import type { KnowledgeBase, RefreshReport } from "../../core/kb/index.js";
import { DocumentCatalog } from "../../core/kb-docs/document-catalog.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

/**
 * What every connection of `mcpterm serve` shares: the knowledge base, its list of documents,
 * and the cleaning every text passes before it leaves. One per process, however many clients.
 */
export class KnowledgeService {
  readonly catalog: DocumentCatalog;
  /**
   * Every text a client gets (passages, documents, headings, prompts), in content and in
   * structuredContent alike: secrets redacted, and what a person cannot see (terminal escapes,
   * BiDi and zero-width controls, tag characters that can spell instructions) taken out, so a
   * client's model reads only what its person could.
   */
  readonly redact: (text: string) => string;

  constructor(
    readonly kb: KnowledgeBase,
    redactSecrets: (text: string) => string,
    exclude: readonly string[],
    /** With kb.embeddings off this machine, a search's query is sent there to be embedded. */
    readonly queriesLeaveMachine = false,
  ) {
    this.catalog = new DocumentCatalog(kb.dir, exclude);
    this.redact = (text) => sanitizeForTerminal(redactSecrets(text));
  }

  /** Re-reads the folder: the index (changed files only) and the document list. */
  async refresh(): Promise<{ report: RefreshReport; changed: boolean }> {
    const report = await this.kb.refresh();
    const listChanged = await this.catalog.refresh();
    const changed = listChanged || report.added.length + report.updated.length + report.removed.length > 0;
    return { report, changed };
  }
}
