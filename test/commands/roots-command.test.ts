import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CommandContext, CommandResult } from "../../src/core/commands/command-types.js";
import { SLASH_COMMANDS, runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { RootList } from "../../src/core/mcp/roots.js";
import { tempDir } from "../support/fixtures.js";

/** /roots over a real RootList whose relative paths are taken from `cwd`. */
function withRoots(cwd: string): { run: (input: string) => Promise<CommandResult>; roots: RootList } {
  const roots = new RootList([cwd]);
  const context = {
    commands: SLASH_COMMANDS,
    roots: {
      paths: () => roots.paths(),
      add: (folder: string) => roots.add(folder, cwd),
      remove: (folder: string) => roots.remove(folder, cwd),
    },
  } as Partial<CommandContext> as CommandContext;
  return { run: (input) => runSlashCommand(context, input), roots };
}

function shown(result: CommandResult): string {
  switch (result.kind) {
    case "text":
      return result.text;
    case "error":
      return result.message;
    case "table":
      return [result.title, ...result.rows.map((row) => row.join(" | "))].join("\n");
  }
}

describe("/roots", () => {
  it("lists the roots, adds and removes folders relative to the working folder, and tells the servers", async () => {
    const cwd = await tempDir("mcpterm-roots-");
    await mkdir(path.join(cwd, "docs"));
    await writeFile(path.join(cwd, "file.txt"), "");
    const { run, roots } = withRoots(cwd);
    let told = 0;
    roots.subscribe(() => (told += 1));

    const listed = await run("/roots");
    expect(listed.kind).toBe("table");
    expect(shown(listed)).toContain(`${cwd} | ${pathToFileURL(cwd).href}`);

    expect(shown(await run("/roots add docs"))).toBe(
      `Added ${path.join(cwd, "docs")} to the roots; connected servers were told.`,
    );
    expect(roots.paths()).toEqual([cwd, path.join(cwd, "docs")]);
    expect(told).toBe(1);
    expect(shown(await run("/roots add ./docs"))).toBe(`${path.join(cwd, "docs")} is a root already.`);
    expect(told).toBe(1);

    expect(await run("/roots add file.txt")).toEqual({
      kind: "error",
      message: `Not added: ${path.join(cwd, "file.txt")} is not a folder.`,
    });
    expect(shown(await run("/roots add nowhere"))).toMatch(/^Not added: .*nowhere does not exist\.$/);

    expect(shown(await run("/roots remove docs"))).toBe(
      "Removed docs from the roots; connected servers were told.",
    );
    expect(told).toBe(2);
    expect(shown(await run("/roots remove docs"))).toBe("docs is not a root; /roots lists them.");
    expect(shown(await run(`/roots remove ${cwd}`))).toMatch(/^Removed /);
    expect(shown(await run("/roots"))).toMatch(/^No roots: servers that ask are offered none/);
    // A folder with spaces, quoted or as typed (two spaces stay two).
    await mkdir(path.join(cwd, "my  notes"));
    expect(shown(await run('/roots add "my  notes"'))).toBe(
      `Added ${path.join(cwd, "my  notes")} to the roots; connected servers were told.`,
    );
    expect(shown(await run("/roots remove my  notes"))).toBe(
      "Removed my  notes from the roots; connected servers were told.",
    );
  });

  it("says how to use it, and offers add and remove to Tab", async () => {
    const { run } = withRoots(await tempDir("mcpterm-roots-"));
    expect(shown(await run("/roots frob x"))).toMatch(/^Usage: \/roots/);
    expect(shown(await run("/roots add"))).toMatch(/^Usage: \/roots/);
    const command = SLASH_COMMANDS.find((candidate) => candidate.name === "roots");
    expect(command?.complete?.([], { servers: [], tools: [] })).toEqual(["add", "remove"]);
  });

  it("says so where the session offers no roots", async () => {
    const context = { commands: SLASH_COMMANDS } as Partial<CommandContext> as CommandContext;
    expect(shown(await runSlashCommand(context, "/roots"))).toBe("This session offers no roots.");
  });
});
