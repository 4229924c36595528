import { setTimeout as delay } from "node:timers/promises";
import { statusPhrase } from "../mcp/types.js";
import type { McpManager } from "../mcp/mcp-manager.js";
import type { CallToolResult } from "../mcp/types.js";
import { ToolCallError } from "../mcp/tool-call-error-class.js";
import { classifyTier } from "../policy/classify-tier.js";
import { resendIsSafe } from "../policy/resend-rule.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { outputSchemaProblem } from "../policy/output-schema.js";
import { capText, DEFAULT_RESULT_CHAR_LIMIT, resultText, textForModel } from "../policy/result-text.js";
import { charsWithinTokens } from "../window/token-estimate.js";
import { schemaForModel } from "../policy/schema-for-model.js";
import { SchemaValidator } from "../policy/schema-validator.js";
import { offersToolTasks, toolWithholdReason } from "../policy/tool-withhold.js";
import { nameHoldsSecret } from "../policy/name-secrets.js";
import { descriptionForModel } from "../policy/tool-description.js";
import { cleanServerText, defuseFenceTags } from "../policy/server-text.js";
import { errorMessage } from "../errors.js";
import { exitSentence } from "../mcp/server-exit.js";
import type { AgentTool, ToolCallContext, ToolHost, ToolOutcome, UnavailableTool } from "./tool-host.js";

const READ_ONLY_ATTEMPTS = 3;
const RETRY_BASE_DELAY_MS = 250;
/** How long a call waits for a server to list the tools it said changed. */
const TOOL_LIST_WAIT_MS = 5_000;

/**
 * The MCP servers' tools as the agent loop sees them: tiered, callable, results shaped for the
 * model and for the person. The tiered list is kept until a server reports a change.
 */
export class McpToolHost implements ToolHost {
  private listed: AgentTool[] | undefined;
  /** Every tool listed this session by the name the model calls it, kept when its server goes down. */
  private readonly named = new Map<string, { server: string; tool: string }>();
  private readonly validator: SchemaValidator;

  constructor(
    private readonly manager: McpManager,
    private readonly options: {
      resultCharLimit?: number;
      redactor?: SecretRedactor;
      /**
       * Sees each result as the server sent it, before shaping, with its secrets still in it: the
       * trace, which redacts every record with the full rule set as it writes it (checkedLines).
       */
      onRawResult?: (callId: string, result: CallToolResult) => void;
      /** The session's validator, which checks results against their tools' outputSchema. */
      validator?: SchemaValidator;
      /** Sees the images of each result (type and base64), for a terminal that can draw them. */
      onImages?: (images: Array<{ mimeType: string; data: string }>) => void;
    } = {},
  ) {
    this.validator = options.validator ?? new SchemaValidator();
    manager.subscribe(() => {
      this.listed = undefined;
    });
  }

  list(): AgentTool[] {
    this.listed ??= this.classify();
    return this.listed;
  }

  async current(tool: AgentTool): Promise<AgentTool | undefined> {
    if (!(await this.manager.toolsSettled(tool.server, TOOL_LIST_WAIT_MS))) return undefined;
    return this.list().find((candidate) => candidate.server === tool.server && candidate.name === tool.name);
  }

  unavailable(modelName: string): UnavailableTool | undefined {
    const known = this.named.get(modelName);
    if (!known || this.serverConnected(known.server)) return undefined;
    const exited = this.exitOf(known.server);
    const snapshot = this.manager.servers().find((server) => server.name === known.server);
    const why =
      exited ??
      `server "${known.server}" ${snapshot ? statusPhrase(snapshot.status) : "is gone"}${snapshot?.error ? ` (${snapshot.error})` : ""}`;
    return {
      ...known,
      reason: `${why} — its tools are unavailable`,
      ...(exited === undefined ? {} : { serverExited: exited }),
    };
  }

  private classify(): AgentTool[] {
    const tools = this.classified();
    for (const tool of tools) this.named.set(tool.modelName, { server: tool.server, tool: tool.name });
    return tools;
  }

  private classified(): AgentTool[] {
    return this.manager.tools().flatMap((registered) => {
      const config = this.manager.connection(registered.server)?.config;
      if (!config) return [];
      const { definition } = registered;
      const decision = classifyTier({
        name: definition.name,
        ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
        inputSchema: definition.inputSchema,
        ...(config.tiers[definition.name] === undefined ? {} : { override: config.tiers[definition.name] }),
        trustedServer: config.trust,
      });
      const description = definition.description ?? definition.title ?? definition.name;
      const { redactor } = this.options;
      const redact = redactor?.redactText;
      const forModel = descriptionForModel(description, redact);
      const schema = schemaForModel(definition.inputSchema, redact);
      const capabilities = this.manager.connection(registered.server)?.snapshot().capabilities;
      const withheld = toolWithholdReason(
        definition,
        redact,
        offersToolTasks(capabilities),
        redactor && ((name) => nameHoldsSecret(name, redactor)),
      );
      const title = definition.title ?? definition.annotations?.title;
      return [
        {
          modelName: registered.modelName,
          server: registered.server,
          name: definition.name,
          ...(title === undefined ? {} : { title: descriptionForModel(title, redact).text }),
          description,
          modelDescription: forModel.text,
          inputSchema: definition.inputSchema,
          modelInputSchema: schema.schema,
          ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
          tier: decision.tier,
          tierReason: decision.reason,
          notes: [
            ...forModel.notes,
            ...schema.notes,
            ...(withheld ? [`not offered to the model: ${withheld}`] : []),
          ],
          ...(withheld ? { withheld } : {}),
        },
      ];
    });
  }

  async call(tool: AgentTool, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutcome> {
    // Only calls the resend rule finds safe are sent again after a timeout or a dropped connection.
    const resendSafe = this.resendSafe(tool);
    const attempts = resendSafe ? READ_ONLY_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.callOnce(tool, args, context, resendSafe);
      } catch (error) {
        const failure = error instanceof ToolCallError ? error.failure : "transient";
        const retryable = error instanceof ToolCallError ? error.retryable : true;
        const retry =
          retryable &&
          failure === "transient" &&
          attempt < attempts &&
          this.serverConnected(tool.server) &&
          !context.signal.aborted;
        if (!retry) {
          const tries = attempt > 1 ? ` (after ${attempt} attempts)` : "";
          // A server whose process ended took its other tools with it: the model is told so.
          // A crash that took the call down is told either way; a server that is back has its tools.
          const connected = this.serverConnected(tool.server);
          const exited =
            (error instanceof ToolCallError ? error.serverExited : undefined) ??
            (connected ? undefined : this.exitOf(tool.server));
          const gone = exited !== undefined && !connected;
          const message = `The call failed${tries}: ${gone ? `${exited} — its tools are unavailable` : errorMessage(error)}`;
          return {
            ok: false,
            forModel: message,
            display: message,
            truncated: false,
            failure,
            ...(exited ? { serverExited: exited } : {}),
          };
        }
        await delay(RETRY_BASE_DELAY_MS * 2 ** (attempt - 1), undefined, { signal: context.signal }).catch(
          () => undefined,
        );
      }
    }
  }

  private async callOnce(
    tool: AgentTool,
    args: Record<string, unknown>,
    context: ToolCallContext,
    resendSafe: boolean,
  ): Promise<ToolOutcome> {
    const result = await this.manager.callTool(tool.server, tool.name, args, {
      signal: context.signal,
      onProgress: context.onProgress,
      ...(context.onTask ? { onTask: context.onTask } : {}),
      resendSafe,
    });
    this.options.onRawResult?.(context.callId, result);
    const images = result.content.flatMap((block) =>
      block.type === "image" ? [{ mimeType: block.mimeType, data: block.data }] : [],
    );
    if (images.length > 0) this.options.onImages?.(images);
    const text = resultText(result);
    // Cleaned as a resource is: what hides text from a person must not reach the model either.
    const { redactor } = this.options;
    const content = await cleanServerText(text.content, redactor);
    const structured =
      text.structured === undefined ? undefined : await cleanServerText(text.structured, redactor);
    const shaped = textForModel(result, { content: content.text, structured: structured?.text });
    const chars = context.resultCharLimit ?? this.options.resultCharLimit ?? DEFAULT_RESULT_CHAR_LIMIT;
    const tokens = context.resultTokenLimit;
    const forModel = capText(shaped, tokens === undefined ? chars : charsWithinTokens(shaped, tokens, chars));
    // A person may read the whole result (the inspector), whatever the model's window leaves.
    const limit = this.options.resultCharLimit;
    if (tool.outputSchema && !this.validator.isReady) await this.validator.ready();
    const problem = outputSchemaProblem(tool.outputSchema, result, this.validator);
    const isError = result.isError === true;
    const links = result.content.some((block) => block.type === "resource_link");
    return {
      ok: !isError,
      forModel: markUntrusted(`${tool.server}/${tool.name}`, forModel.text),
      // A person opens a link themselves: the model only reads its name and URI.
      display: links
        ? `${capText(content.text, limit).text}\n(a resource link opens with /read ${tool.server} <uri>, or mcpterm read ${tool.server} <uri>)`
        : capText(content.text, limit).text,
      ...(structured ? { structured: capText(structured.text, limit).text } : {}),
      ...(problem ? { outputSchemaProblem: problem } : {}),
      ...(text.attachments.length > 0 ? { attachments: text.attachments } : {}),
      truncated: forModel.truncated,
      failure: isError ? "business" : undefined,
      redactions: [...content.rules, ...(structured?.rules ?? [])],
    };
  }

  /** Whether this tool's calls may be sent again (see resendIsSafe): its tier and its server's trust. */
  resendSafe(tool: AgentTool): boolean {
    const trustedServer = this.manager.connection(tool.server)?.config.trust ?? false;
    return resendIsSafe({ tier: tool.tier, tierReason: tool.tierReason, trustedServer });
  }

  /** How a server's process ended, in a sentence, once it has (a stdio server that crashed). */
  private exitOf(server: string): string | undefined {
    const report = this.manager.connection(server)?.exitReport();
    return report ? exitSentence(server, report) : undefined;
  }

  private serverConnected(server: string): boolean {
    return this.manager
      .servers()
      .some((snapshot) => snapshot.name === server && snapshot.status === "connected");
  }
}

/**
 * MCP output is marked as untrusted data, so text inside it that looks like instructions is read
 * as content, not obeyed; no spelling of the tag inside it can end the mark early.
 */
function markUntrusted(label: string, text: string): string {
  return `<tool_output tool="${label}" trust="untrusted">\n${defuseFenceTags(text, "tool_output")}\n</tool_output>`;
}
