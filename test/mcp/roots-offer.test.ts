import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rootsOffer } from "../../src/core/mcp/roots.js";
import { serverConfig, tempDir } from "../support/fixtures.js";

describe("rootsOffer", () => {
  it("keeps a stdio server given a folder on its command line to that folder", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "workspace"));
    const offer = rootsOffer(
      serverConfig("files", { command: "node", args: ["server.js", "workspace"], cwd }),
    );
    expect(offer).toEqual({
      offered: false,
      reason:
        'it was started with the folder workspace on its command line, which roots would replace; set "roots": true in its entry to offer them',
    });
  });

  it("takes an empty argument for no folder, though it resolves to the one the server starts in", async () => {
    const cwd = await tempDir();
    expect(rootsOffer(serverConfig("notes", { command: "node", args: ["server.js", ""], cwd }))).toEqual({
      offered: true,
    });
  });
});
