// Preloaded with `node --import` by start-up tests: records every module the process resolves
// (imported or required) and writes the list to $MCPTERM_TEST_LOADS_FILE as it exits, so a
// test can say which packages a command line loaded.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import process from "node:process";

const loaded = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    loaded.add(result.url);
    return result;
  },
});
process.on("exit", () => {
  const file = process.env.MCPTERM_TEST_LOADS_FILE;
  if (file) writeFileSync(file, [...loaded].join("\n"));
});
