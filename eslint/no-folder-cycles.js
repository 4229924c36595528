// @ts-check
/**
 * A local ESLint rule: no import cycle between folders of src/. Each folder is one node (files at
 * the top of src/ are nodes of their own: the entry points); an import
 * from one folder into another is an edge. A relative import that closes a cycle is reported
 * with the whole cycle, so layering stays one-way (cli -> ui | headless -> common -> core, and
 * inside core one way between its folders) without listing every allowed edge by hand.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/g;
const SIDE_EFFECT_IMPORT = /(?:^|\n)\s*import\s+"(\.{1,2}\/[^"]+)"/g;
const DYNAMIC_IMPORT = /import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

/** @type {Map<string, { graph: Map<string, Set<string>> }>} */
const graphs = new Map();

/** A folder, or for a file at the top of `root`, the file without its extension. @param {string} root @param {string} file */
function nodeOf(root, file) {
  const dir = path.dirname(file);
  return dir === root ? file.replace(/\.(?:tsx?|jsx?)$/, "") : dir;
}

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** @param {string} from @param {string} specifier */
function resolveImport(from, specifier) {
  return path.resolve(path.dirname(from), specifier);
}

/** @param {string} root */
function graphFor(root) {
  const cached = graphs.get(root);
  if (cached) return cached.graph;
  /** @type {Map<string, Set<string>>} */
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const from = nodeOf(root, file);
    for (const pattern of [IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT]) {
      for (const match of text.matchAll(pattern)) {
        const target = resolveImport(file, match[1] ?? "");
        if (!target.startsWith(root + path.sep)) continue;
        const to = nodeOf(root, target);
        if (to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)?.add(to);
      }
    }
  }
  graphs.set(root, { graph });
  return graph;
}

/** A path from `start` back to `goal`, if any. @param {Map<string, Set<string>>} graph @param {string} start @param {string} goal */
function pathBack(graph, start, goal) {
  /** @type {Map<string, string | undefined>} */
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = /** @type {string} */ (queue.shift());
    if (node === goal) {
      const route = [];
      for (let at = /** @type {string | undefined} */ (node); at !== undefined; at = previous.get(at))
        route.unshift(at);
      return route;
    }
    for (const next of graph.get(node) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noFolderCycles = {
  meta: {
    type: "problem",
    docs: { description: "forbid import cycles between folders of src/" },
    schema: [{ type: "object", properties: { root: { type: "string" } }, additionalProperties: false }],
    messages: { cycle: "This import closes a cycle between folders: {{cycle}}." },
  },
  create(context) {
    const options = /** @type {{ root?: string } | undefined} */ (context.options[0]);
    const root = path.resolve(context.cwd, options?.root ?? "src");
    const file = context.filename;
    if (!file.startsWith(root + path.sep)) return {};
    const graph = graphFor(root);
    const from = nodeOf(root, file);
    /** @param {import("estree").Node & { source?: unknown }} node */
    const check = (node) => {
      const source = /** @type {{ value?: unknown } | null | undefined} */ (node.source);
      const specifier = source?.value;
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const target = resolveImport(file, specifier);
      if (!target.startsWith(root + path.sep)) return;
      const to = nodeOf(root, target);
      if (to === from) return;
      const back = pathBack(graph, to, from);
      if (!back) return;
      const cycle = [from, ...back].map((node) => path.relative(context.cwd, node)).join(" -> ");
      context.report({ node, messageId: "cycle", data: { cycle } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
