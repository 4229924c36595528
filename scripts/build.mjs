// @ts-check
/**
 * Builds dist/: one bundle per entry (the CLI and the bundled fetch server), split into chunks
 * at each dynamic import so a command loads only what it runs. A handful of bundled files start
 * several times faster than the hundreds of modules node_modules would otherwise resolve and read.
 * Type checking is `npm run typecheck`'s job; this only transpiles.
 */
import { execFileSync } from "node:child_process";
import process from "node:process";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { build } from "esbuild";
import { inkMeasure, inkWrapSpaces, yogaWithoutFetch } from "./ink-patches.mjs";

/**
 * yargs' platform shim, changed in two lines. Its string-width import becomes a function that
 * requires it when called (see inkMeasure). And where it looks for a package.json to guess
 * a version from: from a path under node_modules it walks up from the folder holding that
 * node_modules, and from anywhere else, the bundle included, from the working folder, listing
 * every folder on the way (all of /tmp, 20,000 entries here, took 15 ms) for a version mcpterm
 * sets itself; it starts at mcpterm's own package folder instead, one level above dist/.
 */
const quickYargsShim = {
  name: "quick-yargs-shim",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, async (args) => {
      const edits = [
        [
          "import stringWidth from 'string-width';",
          "const stringWidth = (text) => require('string-width').default(text);",
        ],
        [
          "mainFilename: mainFilename || process.cwd(),",
          "mainFilename: fileURLToPath(new URL('..', import.meta.url)),",
        ],
      ];
      let source = await readFile(args.path, "utf8");
      for (const [from, to] of edits) {
        if (!source.includes(from))
          throw new Error(`${args.path} no longer holds ${from}: see scripts/build.mjs`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: "js" };
    });
  },
};

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
  plugins: [inkMeasure, inkWrapSpaces, yogaWithoutFetch, quickYargsShim],
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);

// The top-level help, as the parser prints it, for src/quick-answers.ts.
const help = execFileSync(process.execPath, ["dist/cli.js", "--help"], { encoding: "utf8" });
await writeFile("dist/help.txt", help.replace(/\n$/, ""));
