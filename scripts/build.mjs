// @ts-check
/**
 * Builds dist/: one bundle per entry (the CLI and the bundled fetch server), split into chunks
 * at each dynamic import so a command loads only what it runs. A handful of bundled files start
 * several times faster than the hundreds of modules node_modules would otherwise resolve and read.
 * Type checking is `npm run typecheck`'s job; this only transpiles.
 */
import { execFileSync } from "node:child_process";
import process from "node:process";
import { chmod, rm, writeFile } from "node:fs/promises";
import { build } from "esbuild";

await rm("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/cli.tsx", "src/servers/fetch/fetch-server.ts"],
  outdir: "dist",
  outbase: "src",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  sourcemap: true,
  // Bundled CommonJS packages still call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __mcptermRequire } from "node:module"; const require = __mcptermRequire(import.meta.url);',
  },
  // React's production build: no development checks, whose warnings a server could print over the
  // TUI (two choices with one value made React warn about duplicate keys), and faster renders.
  define: { "process.env.NODE_ENV": '"production"' },
  // Ink loads its React devtools bridge only when DEV=true; it is not a dependency.
  external: ["react-devtools-core"],
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);

// The top-level help, as the parser prints it, for src/quick-answers.ts.
const help = execFileSync(process.execPath, ["dist/cli.js", "--help"], { encoding: "utf8" });
await writeFile("dist/help.txt", help.replace(/\n$/, ""));
