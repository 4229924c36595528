import type { Client } from "@modelcontextprotocol/client";
import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";
import { listPages } from "./list-pages.js";
import type { ResponseCache } from "./response-cache.js";

/** What a server offers besides tools: its resources, resource templates and prompts. */
export interface CatalogSnapshot {
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** Why a list could not be fetched, per kind; the others are still shown. */
  problems: string[];
  /** The kinds whose listing failed (the problems above say why). */
  failed: CatalogPart[];
}

export const EMPTY_CATALOG: CatalogSnapshot = {
  resources: [],
  resourceTemplates: [],
  prompts: [],
  problems: [],
  failed: [],
};

export type CatalogPart = "resources" | "prompts";
type Part = CatalogPart;

/**
 * Lists a connected server's resources, templates and prompts (every page, bounded like tools),
 * and lists a part again when the server says it changed. A list that fails is left empty with
 * the reason, and never fails the connection: tools are what a session cannot do without.
 */
export class ServerCatalog {
  private state: CatalogSnapshot = EMPTY_CATALOG;
  private readonly problems = new Map<Part, string>();
  private readonly running = new Map<Part, Promise<void>>();
  private readonly again = new Set<Part>();

  constructor(
    private readonly client: Client,
    private readonly deadlineMs: number,
    private readonly onChange: () => void,
    /** Pages the server said may be kept come from here while they may (see ResponseCache). */
    private readonly cache: ResponseCache,
  ) {}

  snapshot(): CatalogSnapshot {
    return this.state;
  }

  /** Fetches every part the server declared; resolves when all have settled. */
  async load(): Promise<void> {
    await Promise.all([this.refresh("resources"), this.refresh("prompts")]);
  }

  /** The server said `part` changed: what was kept of it is stale, and it is listed again. */
  changed(part: Part): Promise<void> {
    for (const method of part === "resources"
      ? ["resources/list", "resources/templates/list"]
      : ["prompts/list"])
      this.cache.invalidate(method);
    return this.refresh(part);
  }

  /**
   * Lists `part` again. A flood of list_changed notifications costs at most one listing in
   * flight and one after it per part: those that arrive meanwhile are answered by the next.
   */
  refresh(part: Part): Promise<void> {
    const running = this.running.get(part);
    if (running) {
      this.again.add(part);
      return running;
    }
    const listing = this.list(part).finally(() => {
      this.running.delete(part);
      if (this.again.delete(part)) void this.refresh(part);
    });
    this.running.set(part, listing);
    return listing;
  }

  private async list(part: Part): Promise<void> {
    const capabilities = this.client.getServerCapabilities();
    if (!capabilities?.[part]) return;
    try {
      if (part === "resources") {
        const [resources, resourceTemplates] = await Promise.all([
          this.listResources(),
          this.listTemplates(),
        ]);
        this.state = { ...this.state, resources, resourceTemplates };
      } else {
        // Listed first, merged after: the other part may have changed the state meanwhile.
        const prompts = await this.listPrompts();
        this.state = { ...this.state, prompts };
      }
      this.problems.delete(part);
    } catch (error) {
      this.problems.set(part, `listing its ${part} failed: ${errorMessage(error)}`);
    }
    this.state = { ...this.state, problems: [...this.problems.values()], failed: [...this.problems.keys()] };
    this.onChange();
  }

  private listResources(): Promise<Resource[]> {
    return listPages({ one: "resource", many: "resources" }, this.deadlineMs, async (cursor, options) => {
      const answer = await this.cache.through("resources/list", cursor ?? "", () =>
        this.client.request(
          { method: "resources/list", params: cursor === undefined ? {} : { cursor } },
          options,
        ),
      );
      return { items: answer.resources, nextCursor: answer.nextCursor };
    });
  }

  private async listTemplates(): Promise<ResourceTemplate[]> {
    try {
      return await listPages(
        { one: "resource template", many: "resource templates" },
        this.deadlineMs,
        async (cursor, options) => {
          const answer = await this.cache.through("resources/templates/list", cursor ?? "", () =>
            this.client.request(
              { method: "resources/templates/list", params: cursor === undefined ? {} : { cursor } },
              options,
            ),
          );
          return { items: answer.resourceTemplates, nextCursor: answer.nextCursor };
        },
      );
    } catch (error) {
      // Templates are optional: a server with resources but no templates/list answers "method not found".
      if (/-32601|method not found/i.test(errorMessage(error))) return [];
      throw error;
    }
  }

  private listPrompts(): Promise<Prompt[]> {
    return listPages({ one: "prompt", many: "prompts" }, this.deadlineMs, async (cursor, options) => {
      const answer = await this.cache.through("prompts/list", cursor ?? "", () =>
        this.client.request(
          { method: "prompts/list", params: cursor === undefined ? {} : { cursor } },
          options,
        ),
      );
      return { items: answer.prompts, nextCursor: answer.nextCursor };
    });
  }
}
