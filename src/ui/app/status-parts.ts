import { formatDuration } from "../../core/text/index.js";
import type { Part } from "../parts/fit-parts.js";
import { formatTokens } from "../parts/format.js";
import type { ServerStatusView } from "../transcript/transcript-types.js";
import type { ColorRole } from "../parts/theme.js";
import type { TranscriptState } from "../transcript/transcript-types.js";
import { spinnerFrame } from "../parts/use-now.js";

/**
 * Pure: the status line's parts, each with its colour. While a turn runs (`now` given) its
 * elapsed time and answer tokens take the place of the session's token count, the tokens counted
 * as they stream and marked `~` until the model reports them.
 */
export function statusParts(state: TranscriptState, now: number | undefined): Array<Part<ColorRole>> {
  const failed = state.servers.some((server) => server.status === "failed");
  const parts: Array<Part<ColorRole>> = [
    state.model.name
      ? { text: state.model.name, priority: 9, tag: "accent" }
      : { text: "no model (/model <name>)", short: "no model", priority: 9, tag: "error" },
    {
      text: serverProgress(state.servers),
      short: serverProgress(state.servers, true),
      priority: 5,
      tag: failed ? "warning" : "muted",
    },
    { ...kbPart(state), priority: 1, tag: "muted" },
  ];
  const turn = state.turn;
  if (turn && now !== undefined) {
    const elapsed = Math.max(0, now - turn.startedAt);
    const streaming = turn.streamedTokens > 0;
    const tokens = `${streaming ? "~" : ""}${formatTokens(turn.answerTokens + Math.ceil(turn.streamedTokens))}`;
    const clock = `${spinnerFrame(elapsed)} ${formatDuration(elapsed)}`;
    parts.push({
      text: `${clock} · ↓ ${tokens} tokens`,
      short: `${clock} ↓${tokens}`,
      priority: 8,
      tag: "accent",
    });
  } else {
    const tokens = formatTokens(state.tokens);
    parts.push({ text: `${tokens} tokens`, short: `${tokens} tok`, priority: 3, tag: "muted" });
  }
  if (state.toolSelection) {
    const { offered, total } = state.toolSelection;
    parts.push({
      text: `tools ${offered} of ${total}`,
      short: `tools ${offered}/${total}`,
      priority: 4,
      tag: "muted",
    });
  }
  if (state.context) parts.push(contextPart(state.context));
  return parts;
}

/** `ctx 42%` of the window the last request filled; a warning colour from 80%, where compaction nears. */
function contextPart(context: { tokens: number; window: number }): Part<ColorRole> {
  const percent = Math.min(999, Math.round((100 * context.tokens) / Math.max(1, context.window)));
  return {
    text: `ctx ${percent}% of ${formatTokens(context.window)}`,
    short: `ctx ${percent}%`,
    priority: 6,
    tag: percent >= 80 ? "warning" : "muted",
  };
}

function kbPart(state: TranscriptState): { text: string; short: string } {
  switch (state.kb.state) {
    case "ready":
      return {
        text: `kb ${state.kb.chunks} ${state.kb.chunks === 1 ? "chunk" : "chunks"}`,
        short: `kb ${state.kb.chunks}`,
      };
    case "loading":
      return { text: "kb indexing…", short: "kb …" };
    case "off":
      return { text: "kb off", short: "kb off" };
  }
}

/** "2/3 servers ready · 1 failed", with servers still starting counted too; "2/3 srv · 1 failed" when short. */
export function serverProgress(servers: readonly ServerStatusView[], short = false): string {
  if (servers.length === 0) return "no servers";
  const ready = servers.filter((server) => server.status === "connected").length;
  const starting = servers.filter((server) => server.status === "connecting").length;
  const failed = servers.filter((server) => server.status === "failed" || server.status === "closed").length;
  return [
    short ? `${ready}/${servers.length} srv` : `${ready}/${servers.length} servers ready`,
    ...(starting > 0 ? [`${starting} starting`] : []),
    ...(failed > 0 ? [`${failed} failed`] : []),
  ].join(" · ");
}
