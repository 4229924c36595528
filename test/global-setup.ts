import { rm } from "node:fs/promises";
import { compileFixtures } from "./support/compiled-fixtures.js";

/** Compiles the fixture servers once for the whole run; every worker inherits where they are. */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await compileFixtures();
  return () => rm(dir, { recursive: true, force: true });
}
