import type { KnowledgeBase, RefreshReport } from "../../core/kb/index.js";
import { DocumentCatalog } from "../../core/kb-docs/document-catalog.js";

/**
 * What every connection of `mcpterm serve` shares: the knowledge base, its list of documents,
 * and the redactor every text passes before it leaves. One per process, however many clients.
 */
export class KnowledgeService {
  readonly catalog: DocumentCatalog;

  constructor(
    readonly kb: KnowledgeBase,
    readonly redact: (text: string) => string,
    exclude: readonly string[],
    /** With kb.embeddings off this machine, a search's query is sent there to be embedded. */
    readonly queriesLeaveMachine = false,
  ) {
    this.catalog = new DocumentCatalog(kb.dir, exclude);
  }

  /** Re-reads the folder: the index (changed files only) and the document list. */
  async refresh(): Promise<{ report: RefreshReport; changed: boolean }> {
    const report = await this.kb.refresh();
    const listChanged = await this.catalog.refresh();
    const changed = listChanged || report.added.length + report.updated.length + report.removed.length > 0;
    return { report, changed };
  }
}
