import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A server that refuses the handshake with a JSON-RPC error of its own: its code and data say
 * what to do (a licence to activate, a flag to pass), and a failed start quotes them as a failed
 * call does; they used to be dropped, leaving the message alone.
 */
describe("a handshake refused with an error answer", () => {
  const refusing = (error: object): string[] => [
    process.execPath,
    "-e",
    [
      "const error = JSON.parse(process.argv[1]);",
      "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      "  const m = JSON.parse(line);",
      "  if (m.id === undefined) return;",
      "  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, error });",
      "  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });",
      "});",
    ].join("\n"),
    JSON.stringify(error),
  ];
  const licence = {
    code: -32001,
    message: "license check failed",
    data: { licenseFile: "/etc/x.lic", hint: "run activate" },
  };
  const quoted =
    'license check failed (JSON-RPC error -32001, data: {"licenseFile":"/etc/x.lic","hint":"run activate"})';

  it("is quoted with its code and data by tools, doctor and call", async () => {
    const cwd = await tempDir();
    const env = cleanEnv();
    const tools = await runCli(["tools", "--", ...refusing(licence)], { cwd, env });
    expect(tools.stdout).toContain(`node: failed — ${quoted}\n`);
    const doctor = await runCli(["doctor", "--no-calls", "--", ...refusing(licence)], { cwd, env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^ {2}✗ handshake +license check failed \(JSON-RPC error -32001, data: \{/m,
    );
    const call = await runCli(["call", "echo", "--", ...refusing(licence)], { cwd, env });
    expect(call.code).toBe(4);
    expect(call.stderr).toBe(`mcpterm: Server "node" could not be started: ${quoted}.\n`);
  });

  it("has a secret in its data taken out, and says nothing more for an error without data", async () => {
    const cwd = await tempDir();
    const env = cleanEnv();
    const leaky = { code: -32603, message: "upstream refused", data: { apiKey: FAKE_OPENAI_KEY } };
    const tools = await runCli(["tools", "--", ...refusing(leaky)], { cwd, env });
    expect(tools.stdout).not.toContain(FAKE_OPENAI_KEY);
    expect(tools.stdout).toContain('upstream refused (JSON-RPC error -32603, data: {"apiKey":"[REDACTED]"})');
    const bare = await runCli(["tools", "--", ...refusing({ code: -32000, message: "not ready" })], {
      cwd,
      env,
    });
    expect(bare.stdout).toContain("node: failed — not ready (JSON-RPC error -32000)\n");
  });
});
