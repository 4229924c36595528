import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** V8's full collection, reached without starting the process with --expose-gc. */
const gc = runInNewContext("gc") as () => void;

/**
 * A full collection between a suite's timed parts, so none pays for garbage a part before it
 * left (whole indexes the reload figure opened and dropped), which a person's session never has.
 */
export function collectGarbage(): void {
  gc();
}
