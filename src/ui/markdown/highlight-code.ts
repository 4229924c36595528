import { createRequire } from "node:module";
import type * as Lowlight from "lowlight";

/** A run of code text and the highlight.js class it carries (undefined for plain text). */
export interface CodeSegment {
  text: string;
  kind: string | undefined;
}

// Required at the first code block, not imported: highlight.js and its 37 grammars are about a
// third of a megabyte of code that the first frame (and a session without code) never needs.
// createRequire is opaque to the bundler, so they stay in node_modules and load from there.
const requireAtRunTime = createRequire(import.meta.url);
let lowlightOnce: ReturnType<typeof Lowlight.createLowlight> | undefined;
function lowlight(): ReturnType<typeof Lowlight.createLowlight> {
  if (!lowlightOnce) {
    const { common, createLowlight } = requireAtRunTime("lowlight") as typeof Lowlight;
    lowlightOnce = createLowlight(common);
  }
  return lowlightOnce;
}

/** Aliases people write after ``` that highlight.js knows under another name. */
const ALIASES: Record<string, string> = {
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  ts: "typescript",
  js: "javascript",
  py: "python",
  yml: "yaml",
};

interface HastNode {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

/** Splits code into lines of highlighted segments; unknown languages come back plain. */
export function highlightCode(code: string, language: string | undefined): CodeSegment[][] {
  const name = language ? (ALIASES[language.toLowerCase()] ?? language.toLowerCase()) : undefined;
  const segments: CodeSegment[] = [];
  if (name && lowlight().registered(name)) {
    try {
      collect(lowlight().highlight(name, code), undefined, segments);
    } catch {
      segments.splice(0, segments.length, { text: code, kind: undefined });
    }
  } else {
    segments.push({ text: code, kind: undefined });
  }
  return toLines(segments);
}

function collect(node: HastNode, kind: string | undefined, out: CodeSegment[]): void {
  if (node.type === "text") {
    out.push({ text: node.value ?? "", kind });
    return;
  }
  const className = node.properties?.className;
  const own =
    Array.isArray(className) && typeof className[0] === "string" ? className[0].replace(/^hljs-/, "") : kind;
  for (const child of node.children ?? []) collect(child, own, out);
}

function toLines(segments: readonly CodeSegment[]): CodeSegment[][] {
  const lines: CodeSegment[][] = [[]];
  for (const segment of segments) {
    const parts = segment.text.split("\n");
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part) lines[lines.length - 1]?.push({ text: part, kind: segment.kind });
    });
  }
  return lines;
}

const CODE_COLORS: Record<string, string> = {
  keyword: "magenta",
  built_in: "magenta",
  "selector-tag": "magenta",
  string: "green",
  regexp: "green",
  addition: "green",
  number: "yellow",
  literal: "yellow",
  comment: "gray",
  quote: "gray",
  title: "blue",
  function: "blue",
  "title.function": "blue",
  "title.class": "blue",
  attr: "cyan",
  attribute: "cyan",
  variable: "cyan",
  property: "cyan",
  deletion: "red",
};

/** Terminal colour for a highlight.js class. */
export function codeColor(kind: string | undefined): string | undefined {
  return kind === undefined ? undefined : CODE_COLORS[kind];
}
