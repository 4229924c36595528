import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/args/index.js";
import { UsageError } from "../../src/core/errors.js";

const parse = (...argv: string[]) => parseArgs(argv, "1.2.3");

describe("parseArgs", () => {
  it.each([
    [[], { command: "interactive", oneShotFlags: [] }],
    // One-shot flags without --prompt are kept (for piped stdin) and named, never dropped.
    [
      ["--yes", "--output", "json", "--approve", "dangerous"],
      {
        command: "interactive",
        oneShot: { yes: true, output: "json", approve: ["dangerous"] },
        oneShotFlags: ["--output", "--approve", "--yes"],
      },
    ],
    [
      ["-p", "hi"],
      { command: "prompt", prompt: "hi", output: "text", approve: [], yes: false, maxSteps: 20, kb: true },
    ],
    [["--prompt", "-"], { command: "prompt", prompt: "-" }],
    [["-p", "hi", "--no-kb"], { command: "prompt", kb: false }],
    [
      ["-p", "hi", "--kb", "notes"],
      { command: "prompt", kb: true, common: { kbDir: "notes", config: undefined, debug: false } },
    ],
    [
      ["-p", "hi", "--approve", "dangerous, external"],
      { command: "prompt", approve: ["dangerous", "external"] },
    ],
    [
      // Given twice, the tiers of both count.
      ["-p", "hi", "--approve", "dangerous", "--approve", "external,low_risk"],
      { command: "prompt", approve: ["dangerous", "external", "low_risk"] },
    ],
    [
      ["-p", "hi", "--yes", "--output", "json", "--max-steps", "3"],
      { command: "prompt", yes: true, output: "json", maxSteps: 3 },
    ],
    [
      ["-p", "hi", "--trace", "t.jsonl", "--config", "c.json"],
      { command: "prompt", trace: "t.jsonl", common: { config: "c.json", kbDir: undefined, debug: false } },
    ],
    [
      ["-p", "hi", "--model", "m", "--base-url", "http://x/v1", "--api-key", "k"],
      { modelArgs: { model: "m", baseUrl: "http://x/v1", apiKey: "k" } },
    ],
    [["resources"], { command: "resources", server: undefined, json: false }],
    [["resources", "everything", "--json"], { command: "resources", server: "everything", json: true }],
    [["prompts", "everything"], { command: "prompts", server: "everything", json: false }],
    [["trace", "--wire"], { command: "trace", wire: true, full: false }],
    [["trace", "t.jsonl", "--wire", "--full"], { command: "trace", file: "t.jsonl", wire: true, full: true }],
    [["tools"], { command: "tools", server: undefined, tool: undefined, search: [], json: false }],
    [
      ["tools", "--search", "weather in Paris", "--search", "open a pull request", "--json"],
      { command: "tools", search: ["weather in Paris", "open a pull request"], kb: true, json: true },
    ],
    [["tools", "--search", "weather", "--no-kb"], { command: "tools", search: ["weather"], kb: false }],
    [
      ["serve"],
      { command: "serve", http: undefined, host: "127.0.0.1", hostGiven: false, tokenEnv: undefined },
    ],
    [
      ["serve", "--http", "3001", "--host", "0.0.0.0", "--token-env", "KB_TOKEN"],
      { command: "serve", http: 3001, host: "0.0.0.0", hostGiven: true, tokenEnv: "KB_TOKEN" },
    ],
    [
      ["kb", "add", "my notes.md", "--as", "ops/notes.md", "--force"],
      { command: "kb", action: "add", source: "my notes.md", as: "ops/notes.md", force: true, yes: false },
    ],
    [["kb", "add", "https://x.example/a", "--yes"], { command: "kb", action: "add", yes: true }],
    [["kb", "remove", "ops/notes.md"], { command: "kb", action: "remove", path: "ops/notes.md" }],
    // After --, a word that starts with - is the query or the path, not an option.
    [
      ["kb", "search", "--", "-fno-strict-aliasing"],
      { command: "kb", action: "search", query: "-fno-strict-aliasing" },
    ],
    [["kb", "search", "gcc", "--k", "2", "--", "-O2", "--k"], { command: "kb", query: "gcc -O2 --k", k: 2 }],
    [["kb", "remove", "--", "-old.md"], { command: "kb", action: "remove", path: "-old.md" }],
    // Exactly as typed: yargs would read 0x10 as 16 and 1e3 as 1000.
    [["kb", "remove", "--", "0x10"], { command: "kb", action: "remove", path: "0x10" }],
    [["kb", "search", "--", "1e3", "-1.50"], { command: "kb", action: "search", query: "1e3 -1.50" }],
    [
      ["tools", "--server", "fs", "--json"],
      { command: "tools", server: "fs", tool: undefined, search: [], json: true },
    ],
    [
      ["tools", "--server", "fs", "read_file"],
      { command: "tools", server: "fs", tool: "read_file", search: [], json: false },
    ],
    [
      ["call", "fs/read_file", '{"path":"a"}'],
      { command: "call", server: "fs", tool: "read_file", arguments: ['{"path":"a"}'] },
    ],
    [
      ["call", "fs/read_file", "--yes", "--timeout", "500", "--json"],
      { command: "call", arguments: [], yes: true, timeoutMs: 500, json: true },
    ],
    [
      ["call", "fs/read_file", "path=a b", '{"depth":2}', "n=007"],
      { command: "call", arguments: ["path=a b", '{"depth":2}', "n=007"] },
    ],
    // A server typed after --: its words kept exactly (yargs would read 007 as 7 and --port as ours).
    [
      ["call", "read_file", "n=1", "--json", "--", "node", "build/fs.js", "--port", "007"],
      {
        command: "call",
        server: "fs",
        tool: "read_file",
        arguments: ["n=1"],
        json: true,
        common: { target: { name: "fs", command: "node", args: ["build/fs.js", "--port", "007"] } },
      },
    ],
    [
      ["tools", "--", "npx", "-y", "@acme/notes-mcp@1.2.0"],
      {
        command: "tools",
        server: "notes-mcp",
        common: { target: { name: "notes-mcp", command: "npx", args: ["-y", "@acme/notes-mcp@1.2.0"] } },
      },
    ],
    [
      ["tools", "get_note", "--", "node", "notes.js"],
      { command: "tools", server: "notes", tool: "get_note" },
    ],
    [
      ["doctor", "--url", "http://127.0.0.1:3001/mcp", "--json"],
      {
        command: "doctor",
        server: "127.0.0.1:3001",
        json: true,
        calls: true,
        common: { target: { name: "127.0.0.1:3001", url: "http://127.0.0.1:3001/mcp" } },
      },
    ],
    [["doctor"], { command: "doctor", server: undefined, json: false, calls: true }],
    [
      ["doctor", "notes", "--no-calls", "--timeout", "2000"],
      { command: "doctor", server: "notes", calls: false, timeoutMs: 2000 },
    ],
    [
      ["read", "notes://1", "--", "python3", "-m", "notes_server"],
      { command: "read", server: "notes_server", uri: "notes://1" },
    ],
    [["read", "fs", "file:///a"], { command: "read", server: "fs", uri: "file:///a" }],
    [
      ["prompts", "summarize", "7", "style=bullets", "--", "node", "notes.js"],
      { command: "prompts", server: "notes", prompt: "summarize", arguments: ["7", "style=bullets"] },
    ],
    [
      ["prompts", "notes", "summarize", "id=7"],
      { command: "prompts", server: "notes", prompt: "summarize", arguments: ["id=7"] },
    ],
    [["prompts"], { command: "prompts", server: undefined, prompt: undefined, arguments: [] }],
    [["resources", "--", "./notes-server"], { command: "resources", server: "notes-server" }],
    [
      ["dev", "--call", "list_notes", "--", "env", "DEBUG=1", "node", "build/notes.js"],
      { command: "dev", server: "notes", calls: [{ tool: "list_notes", arguments: undefined }] },
    ],
    [
      ["replay", "calls.jsonl", "--slow-factor", "5", "--slow-ms", "200", "--", "node", "notes.js"],
      { command: "replay", file: "calls.jsonl", slowFactor: 5, slowMs: 200, servers: [] },
    ],
    [["trace", "--calls", "--server", "fs"], { command: "trace", calls: true, server: "fs" }],
    [
      ["replay"],
      {
        command: "replay",
        file: undefined,
        servers: [],
        json: false,
        yes: false,
        ignore: [],
        ignoreFile: undefined,
        slowFactor: 10,
        slowMs: 1000,
      },
    ],
    [
      [
        "replay",
        "t.jsonl",
        "--server",
        "fs=node 'build/my server.js' --port 0",
        "--server",
        "web=https://example.com/mcp",
        "--ignore",
        "$.structuredContent.id",
        "--ignore",
        "$..ts",
        "--yes",
        "--timeout",
        "900",
      ],
      {
        command: "replay",
        file: "t.jsonl",
        servers: [
          { name: "fs", command: "node", args: ["build/my server.js", "--port", "0"] },
          { name: "web", url: "https://example.com/mcp" },
        ],
        ignore: ["$.structuredContent.id", "$..ts"],
        yes: true,
        timeoutMs: 900,
      },
    ],
    [
      [
        "dev",
        "fs",
        "--watch",
        "src",
        "--watch",
        "lib",
        "--call",
        'echo {"text":"hi"}',
        "--call",
        "ping",
        "--replay",
        "t.jsonl",
      ],
      {
        command: "dev",
        server: "fs",
        watch: ["src", "lib"],
        calls: [
          { tool: "echo", arguments: '{"text":"hi"}' },
          { tool: "ping", arguments: undefined },
        ],
        replay: "t.jsonl",
        logLevel: "debug",
        yes: false,
      },
    ],
  ])("%j", async (argv, expected) => {
    expect(await parse(...argv)).toMatchObject(expected);
  });

  it.each([
    [["--frobnicate"], /Unknown argument: --frobnicate/],
    // Named once, as typed, not also as yargs's camelCase copy.
    [["--bogus-flag"], /^Unknown argument: --bogus-flag \(see mcpterm --help for what it takes\)$/],
    // The command's own option a typo is closest to; an option of the assistant's given to a command.
    [["doctor", "--jsn"], /^Unknown argument: --jsn; did you mean --json\? \(see mcpterm doctor --help/],
    [["tools", "--jsno"], /^Unknown argument: --jsno; did you mean --json\?/],
    [["--modle", "m"], /^Unknown argument: --modle; did you mean --model\?/],
    [
      ["call", "notes/search", "--trace", "t.jsonl"],
      /^Unknown argument: --trace; --trace is the assistant's \(mcpterm, mcpterm -p\), not mcpterm call's \(see mcpterm call --help for what it takes\)$/,
    ],
    [["call", "notes/search", "-z"], /^Unknown argument: -z \(see mcpterm call --help for what it takes\)$/],
    // Only an option of the command's own Options, one edit from a short name, same first letter.
    [["tools", "--all"], /^Unknown argument: --all \(see mcpterm tools --help for what it takes\)$/],
    [["doctor", "--http"], /^Unknown argument: --http \(see mcpterm doctor --help/],
    [["doctor", "--no-calss"], /^Unknown argument: --no-calss; did you mean --no-calls\?/],
    [["doctor", "--JSON"], /^Unknown argument: --JSON; did you mean --json\?/],
    // A mistyped command: the one meant, and the help that lists the commands.
    [
      ["doctr"],
      /^Unknown argument: doctr; did you mean mcpterm doctor\? \(see mcpterm --help for what it takes\)$/,
    ],
    [
      ["-p", "hi", "--approve", "everything"],
      /unknown tier "everything"; use any of read_only, low_risk, dangerous, external/,
    ],
    [["-p", "hi", "--max-steps", "0"], /--max-steps must be a whole number from 1 to 1000, got 0/],
    [["-p", "hi", "--max-steps", "2.5"], /--max-steps must be a whole number/],
    [["-p", "hi", "--max-steps", "abc"], /^--max-steps needs a number written in decimal digits, got "abc"/],
    [["-p", "hi", "--max-steps", "99999999999999999999"], /from 1 to 1000, got 100000000000000000000/],
    [
      ["-p", "hi", "--output", "xml"],
      /^--output does not take "xml"; give one of "text", "json", "stream-json" \(see mcpterm --help\)\.$/,
    ],
    [["-p", "hi", "--output"], /^--output needs a value; give one of "text", "json", "stream-json"/],
    // A value option left without its value (last, before another flag, an empty "$VAR") would
    // have let the run go on with the environment's value or the default.
    [["-p", "hi", "--model"], /^--model needs a value \(see mcpterm --help\)$/],
    [["-p", "hi", "--base-url", "--no-kb"], /^--base-url needs a value/],
    [["-p", "hi", "--api-key", ""], /^--api-key needs a value/],
    [["-p", "hi", "--model="], /^--model needs a value/],
    [["-p", "hi", "--max-steps"], /^--max-steps needs a number \(see mcpterm --help\)$/],
    [["-p", "hi", "--temperature", "--no-kb"], /^--temperature needs a number/],
    [["call", "fs/read", "--timeout"], /^--timeout needs a number/],
    [["call", "fs/read", "--timeout="], /^--timeout needs a number/],
    [["call", "fs/read", "--timeout", ""], /^--timeout needs a number/],
    [["--max-steps", "-p", "hi"], /^--max-steps needs a number/],
    // An empty positional is the command's to judge, named as such, not as a flag.
    [["call", ""], /^expected <server>\/<tool>, got ""/],
    [
      ["-p", "hi", "--protocol", "1999"],
      /^--protocol does not take "1999"; give one of "auto", "2025-11-25", "2026-07-28"/,
    ],
    [["-p", "  "], /--prompt needs text/],
    [["call", "no-slash"], /expected <server>\/<tool>/],
    [
      ["tools", "read_file"],
      /name the server of tool "read_file": mcpterm tools --server <server> read_file/,
    ],
    [
      ["call"],
      /^mcpterm call needs more arguments \(got 0, needs at least 1\); see mcpterm call --help for what it takes\.$/,
    ],
    [
      ["--no-kb", "kb"],
      /^mcpterm kb needs more arguments \(got 0, needs at least 1\); see mcpterm kb --help/,
    ],
    [["read", "fs"], /^mcpterm read needs the resource's uri: mcpterm read <server> <uri>/],
    [["read"], /^mcpterm read needs more arguments \(got 0, needs at least 1\)/],
    [
      ["tools", "--server", "fs", "--", "node", "fs.js"],
      /give the server either by its name in the config or after --/,
    ],
    [
      ["resources", "fs", "--url", "http://x/mcp"],
      /give the server either by its name in the config or after --/,
    ],
    [["resources", "--url", "ftp://x/mcp"], /--url needs an http\(s\) address, got "ftp:\/\/x\/mcp"/],
    [["resources", "--url", "http://x/mcp", "--", "node", "s.js"], /either after -- or as --url, not both/],
    [["call", "echo", "--"], /-- needs the command that starts the server/],
    [["tools", "--config", "c.json", "--", "node", "s.js"], /--config names the servers to start/],
    [
      ["replay", "--server", "a=node a.js", "--", "node", "b.js"],
      /--server names which recorded server a command replaces/,
    ],
    [["replay", "--slow-factor", "0.5"], /--slow-factor must be a number of at least 1, got 0\.5/],
    [["replay", "--slow-ms", "-3"], /--slow-ms must be a whole number of milliseconds, got -3/],
    [
      ["call", "fs/read", "--timeout", "abc"],
      /^--timeout needs a number written in decimal digits, got "abc"/,
    ],
    [["call", "fs/read", "--timeout", "-1"], /--timeout must be a whole number from 1/],
    [
      ["call", "fs/read", "--timeout", "1e99"],
      /^--timeout needs a number written in decimal digits, got "1e99"/,
    ],
    [["call", "fs/read", "--timeout", "9999999999"], /--timeout must be a whole number from 1 to 2147483647/],
    // Numbers JavaScript reads that a person did not write: 16, 0 and a space.
    [
      ["-p", "hi", "--max-tokens", "0x10"],
      /^--max-tokens needs a number written in decimal digits, got "0x10"/,
    ],
    [["-p", "hi", "--temperature= "], /^--temperature needs a number written in decimal digits, got " "/],
    [["-p", "hi", "--max-steps", " 5"], /^--max-steps needs a number written in decimal digits/],
    // A switch given a value other than true or false was read as false, and the run denied.
    [["-p", "hi", "--yes=yes"], /^--yes is a switch: give it alone \(or =true, =false\), not "yes"/],
    // Every spelling yargs takes: camelCase, and a one-letter option with two dashes.
    [
      ["-p", "hi", "--maxTokens", "0x10"],
      /^--max-tokens needs a number written in decimal digits, got "0x10"/,
    ],
    [["-p", "hi", "--contextWindow= "], /^--context-window needs a number written in decimal digits/],
    [["kb", "search", "apples", "--k", "0x2"], /^--k needs a number written in decimal digits, got "0x2"/],
    // Left without a value, in those spellings too.
    [["kb", "search", "apples", "--k"], /^--k needs a number/],
    [["-p", "hi", "--maxTokens", "--yes"], /^--max-tokens needs a number \(see/],
    [["-p", "hi", "--allowSecretArguments=yes"], /^--allow-secret-arguments is a switch/],
    [
      ["-p", "hi", "--no-kb", "--kb", "/tmp"],
      /^--no-kb and --kb <dir> say opposite things; give one of them/,
    ],
    [
      ["-p", "hi", "--", "node", "x.js"],
      /^mcpterm takes nothing after --: a server typed there is for tools, call, .*; leave out -- and what follows it/,
    ],
    [
      ["kb", "search", "-fno-rtti"],
      /^Unknown arguments: f, n, o.*; a query or path that starts with - goes after --/,
    ],
    [["kb", "stats", "extra"], /^mcpterm kb stats takes no words; did you mean mcpterm kb search\?/],
    [["kb", "remove", "--", "a.md", "b.md"], /mcpterm kb remove takes one <path>/],
    [["-p", "a", "-p", "b"], /^--prompt was given more than once; give it once/],
    [["-p", "a", "--model", "m", "--model", "n"], /^--model was given more than once/],
    [["kb", "search", "q", "--k", "1", "--k", "2"], /^--k was given more than once/],
    [["kb", "add"], /mcpterm kb add takes one <path|url>/],
    [["kb", "remove", "a.md", "b.md"], /mcpterm kb remove takes one <path>/],
    [["serve", "--http", "-1"], /--http must be a port from 0 to 65535/],
    [["replay", "--server", "fs"], /--server needs name=<command or url>/],
    [
      ["replay", "--server", "fs=node 'unclosed"],
      /--server fs: the command line "node 'unclosed" has an unclosed ' quote/,
    ],
    [["tools", "--server", "a", "--server", "b"], /^--server was given more than once/],
    [["tools", "--search", " "], /^--search needs the text of a request/],
    [
      ["tools", "--server", "a", "read", "--search", "x"],
      /^--search ranks every tool; leave out the tool name/,
    ],
    [["doctor", "fs", "--", "node", "fs.js"], /give the server either by its name in the config or after --/],
    [["dev"], /^mcpterm dev needs a server: its name in the config, or its command after --/],
    [["dev", "fs", "--log-level", "loud"], /--log-level must be one of debug, .*, got "loud"/],
  ])("%j is a usage error", async (argv, message) => {
    const error = await parse(...argv).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).exitCode).toBe(2);
  });

  it("does not repeat the values of an option given twice: one may be a key", async () => {
    const error = (await parse(
      "-p",
      "x",
      "--api-key",
      "sk-one-1234567890",
      "--api-key",
      "sk-two-1234567890",
    ).catch((caught: unknown) => caught)) as UsageError;
    expect(error.message).toMatch(/^--api-key was given more than once/);
    expect(error.message).not.toMatch(/sk-one|sk-two/);
  });

  it("returns help and version as text to print", async () => {
    expect(await parse("--version")).toEqual({ command: "print", text: "1.2.3" });
    const help = await parse("--help");
    expect(help.command).toBe("print");
    expect(help.command === "print" && help.text).toMatch(/mcpterm tools[\s\S]*--prompt[\s\S]*--approve/);
  });
});
