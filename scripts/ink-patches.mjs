// @ts-check
/**
 * How the build makes Ink measure and wrap text as mcpterm does. Both are esbuild plugins for
 * scripts/build.mjs: the product runs from dist/, so this is what a person sees (tests that render
 * through Ink in process see Ink as published).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

const DISPLAY_WIDTH = path.resolve("src/core/text/display-width.ts");
const WRAP_SPACES = path.resolve("src/ui/terminal/wrap-spaces.ts");

/**
 * Every bundled `string-width` import (Ink's, wrap-ansi's, cli-truncate's, whatever the version)
 * becomes src/core/text's terminalStringWidth: string-width itself, loaded at run time when first
 * asked (it builds Unicode-set regular expressions as it is imported, about 35 ms that `-p` would
 * pay for nearly always ASCII text), with joined emoji (a ZWJ family, a skin tone) counted at the
 * widest a terminal draws them. Ink then lays out, wraps and pads with the width mcpterm fits
 * with, and a box holding such an emoji never pushes its border past the window, where tmux or
 * xterm would wrap it and every redraw would leave a broken row behind. yargs, which imports
 * string-width for its help layout only, is given a function that requires it (quickYargsShim).
 */
export const inkMeasure = {
  name: "ink-measure",
  /** @param {import("esbuild").PluginBuild} builder */
  setup(builder) {
    // display-width.ts imports only string-width's type, and requires the package at run time.
    builder.onResolve({ filter: /^string-width$/ }, () => ({ path: "measure", namespace: "ink-measure" }));
    builder.onLoad({ filter: /^measure$/, namespace: "ink-measure" }, () => ({
      contents: `export { terminalStringWidth as default } from ${JSON.stringify(DISPLAY_WIDTH)};`,
      loader: "js",
      resolveDir: path.dirname(DISPLAY_WIDTH),
    }));
  },
};

/**
 * Ink's word wrap (wrap-text.js), with the spaces wrap-ansi moves to the start of a continued
 * row taken away (dropWrapSpaces): a word ending right at the edge made the next row begin with
 * a stray space. Ink measures a text's height with the same function, so layout and drawing agree.
 */
export const inkWrapSpaces = {
  name: "ink-wrap-spaces",
  /** @param {import("esbuild").PluginBuild} builder */
  setup(builder) {
    builder.onLoad({ filter: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/ }, async (args) => {
      const from = `wrappedText = wrapAnsi(text, maxWidth, {
            trim: false,
            hard: true,
        });`;
      const source = await readFile(args.path, "utf8");
      if (!source.includes(from))
        throw new Error(`${args.path} no longer holds ${from}: see scripts/ink-patches.mjs`);
      const patched = source.replace(
        from,
        `wrappedText = dropWrapSpaces(text, wrapAnsi(text, maxWidth, { trim: false, hard: true }));`,
      );
      return {
        contents: `import { dropWrapSpaces } from ${JSON.stringify(WRAP_SPACES)};\n${patched}`,
        loader: "js",
      };
    });
  },
};

/**
 * Yoga (Ink's layout engine) with its WebAssembly decoded from the base64 it ships, not read
 * through `fetch("data:…")`: on Node that first call to fetch loads undici, about 35 ms of
 * every TUI start before Ink can draw (yoga awaits the module as it is imported). Yoga's own
 * fallback, taken where there is no fetch, decodes the same bytes.
 */
export const yogaWithoutFetch = {
  name: "yoga-without-fetch",
  /** @param {import("esbuild").PluginBuild} builder */
  setup(builder) {
    builder.onLoad(
      { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      async (args) => {
        const source = await readFile(args.path, "utf8");
        const check = '"function"!=typeof fetch';
        const found = source.split(check).length - 1;
        if (found !== 2)
          throw new Error(`${args.path} holds ${check} ${found} times, not 2: see scripts/ink-patches.mjs`);
        return { contents: source.replaceAll(check, "true"), loader: "js" };
      },
    );
  },
};
