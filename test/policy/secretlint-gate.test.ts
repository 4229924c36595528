import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { lintSource } from "@secretlint/core";
import { creator as preset, rules } from "@secretlint/secretlint-rule-preset-recommend";
import { describe, expect, it } from "vitest";
import {
  GATED_PRESET_VERSION,
  RULE_PIECES,
  SECRETLINT_SOURCE,
  secretlintMightReport,
} from "../../src/core/policy/secretlint-gate.js";

const PREFIX = "@secretlint/secretlint-rule-";
const config = { rules: [{ id: `${PREFIX}preset-recommend`, rule: preset }] };

/** The rules secretlint's preset reports in `text`, run in full as lintSecrets ran it before the gate. */
async function reported(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, ...SECRETLINT_SOURCE },
    options: { config, maskSecrets: false },
  });
  return result.messages.map((message) => message.ruleId.replace(PREFIX, ""));
}

/** A deterministic stream of numbers in [0, 1), so a failing case is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const run = (length: number, alphabet = ALNUM, offset = 0): string =>
  Array.from({ length }, (_, index) => alphabet[(index * 7 + offset) % alphabet.length]).join("");
const base64Of = (text: string): string => Buffer.from(text, "utf8").toString("base64");
/** A 1Password service-account token: base64 of a JSON object whose encoding ends in `fQ`. */
const onePassword = (): string => {
  let json = `{"signInAddress":"my.1password.com","email":"x@example.com","secretKey":"${run(60)}"}`;
  while (!base64Of(json).replace(/=+$/, "").endsWith("fQ")) json = json.replace('"x@', '"xx@');
  return `ops_${base64Of(json)}`;
};
const pem = `-----BEGIN RSA PRIVATE KEY-----\nMII${run(64)}\n${run(64, ALNUM, 3)}\n-----END RSA PRIVATE KEY-----`;

/** For every rule that can report on SECRETLINT_SOURCE, secrets of each form it finds. */
const SAMPLES: Record<string, string[]> = {
  aws: [
    `AWS_SECRET_ACCESS_KEY = "${run(40)}"`,
    `secret_access_key: ${run(40, ALNUM, 5)}`,
    `"awsSecretAccessKey" => '${run(40, ALNUM, 9)}'`,
  ],
  privatekey: [pem, pem.replace(/\n/g, "\\n")],
  npm: [`npm_${run(36)}`],
  basicauth: ["https://alice:Zq8xPw3r@example.com/x", "ftp://deploy:K7mW2pQx@files.example.org"],
  slack: [
    `xoxb-123456789012-123456789012-${run(24)}`,
    `xapp-1-A0123456789-${run(30)}`,
    `HTTPS://HOOKS.SLACK.COM/services/T${run(8)}/B${run(8)}/${run(24)}`,
  ],
  sendgrid: [`SG.${run(22)}.${run(43)}`],
  shopify: [`shpat_${run(32)}`, `shpss_${run(40)}`],
  stripe: [`sk_live_${run(24)}`, `rk_test_${run(30)}`],
  github: [`ghp_${run(36)}`, `github_pat_${run(82)}`, `ghs_123_${run(20)}.${run(30)}.${run(20)}`],
  gitlab: [`glpat-${run(20)}`],
  grafana: [`glc_${run(40)}==`, `glsa_${run(32)}_0123abcd`],
  openai: [`sk-${run(20)}T3BlbkFJ${run(20)}`, `sk-proj-${run(58)}T3BlbkFJ${run(58)}`],
  anthropic: [`sk-ant-api03-${run(93)}AA`],
  groq: [`gsk_${run(52)}`],
  huggingface: [`hf_${run(34, "abcdefghijklmnopqrstuvwxyzABCDEFGH")}`],
  linear: [`lin_api_${run(40)}`],
  notion: [`ntn_12345678901${run(35)}`],
  "1password": [onePassword()],
  "database-connection-string": [
    "postgres://app:Zq8xPw3r@db.internal:5432/app",
    "MongoDB+srv://reader:K7mW2pQx@cluster0.example.net/test",
    "jdbc:mysqlx://ops:Tr4vQ9zL@10.0.0.5:3306/shop",
  ],
  "hashicorp-vault": [`hvs.${run(95)}`, `hvb.${run(140)}`, `hvr.${run(95)}`],
  vercel: [`vcp_${run(24)}`, `vck_${run(40)}`],
  databricks: [`dapi${run(32, "0123456789abcdef")}`],
  docker: [`dckr_pat_${run(27)}`],
  figma: [`figd_${run(40)}`],
  cloudflare: [`cfk_${run(40)}0123abcd`],
  tailscale: [`tskey-api-${run(12)}-${run(20)}`],
};

/** Variants a step away from `text`: each character dropped, doubled, case-flipped or punctuated. */
function nearMisses(text: string, random: () => number): string[] {
  const variants: string[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const before = text.slice(0, index);
    const after = text.slice(index + 1);
    const character = text[index] ?? "";
    variants.push(before + after, before + character + character + after);
    const flipped = character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
    if (flipped !== character) variants.push(before + flipped + after);
    const punctuation = "-_.:/@ \n"[Math.floor(random() * 8)] ?? "";
    if (random() < 0.3) variants.push(before + punctuation + character + after);
  }
  return variants;
}

describe("secretlintMightReport", () => {
  it("was read from the preset installed, and knows every one of its rules", async () => {
    const require = createRequire(import.meta.url);
    const manifest = path.join(
      path.dirname(require.resolve("@secretlint/secretlint-rule-preset-recommend")),
      "..",
      "package.json",
    );
    const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
    // A new preset may bring a rule or a changed pattern: read it and update secretlint-gate.ts.
    expect(version).toBe(GATED_PRESET_VERSION);
    const ids = rules.map((rule) => rule.meta.id.replace(PREFIX, "")).sort();
    expect(Object.keys(RULE_PIECES).sort()).toEqual(ids);
  });

  it.each(Object.entries(SAMPLES))("lets every %s secret through to secretlint", async (rule, samples) => {
    for (const sample of samples) {
      const text = `config:\n  value: ${sample}\nend`;
      expect(await reported(text), sample).toContain(rule);
      expect(secretlintMightReport(text), sample).toBe(true);
    }
  });

  it("covers every rule that can report with a sample", () => {
    const reporting = Object.entries(RULE_PIECES)
      .filter(([, piece]) => piece !== null)
      .map(([rule]) => rule)
      .sort();
    expect(Object.keys(SAMPLES).sort()).toEqual(reporting);
  });

  it("never stops a text secretlint reports on: near misses of every sample", async () => {
    const random = seeded(12);
    let reportedCount = 0;
    for (const samples of Object.values(SAMPLES)) {
      for (const sample of samples) {
        for (const variant of nearMisses(sample, random)) {
          if ((await reported(variant)).length === 0) continue;
          reportedCount += 1;
          expect(secretlintMightReport(variant), variant).toBe(true);
        }
      }
    }
    // The variants are mostly secrets still: the property was checked on many, not on none.
    expect(reportedCount).toBeGreaterThan(1000);
  });

  it("never stops a text secretlint reports on: pieces of every sample, shuffled together", async () => {
    const random = seeded(7);
    const fragments = Object.values(SAMPLES)
      .flat()
      .flatMap((sample) => [sample.slice(0, 12), sample.slice(12), sample]);
    let reportedCount = 0;
    for (let round = 0; round < 600; round += 1) {
      const parts = Array.from(
        { length: 1 + Math.floor(random() * 4) },
        () => fragments[Math.floor(random() * fragments.length)] ?? "",
      );
      const text = parts.join(["", " ", "\n", "=", ":"][Math.floor(random() * 5)]);
      if ((await reported(text)).length === 0) continue;
      reportedCount += 1;
      expect(secretlintMightReport(text), text).toBe(true);
    }
    expect(reportedCount).toBeGreaterThan(100);
  });

  it.each([
    ["x"],
    ["The filesystem server listed 3 files: a.md, b.md, c.md."],
    ['{"content":[{"type":"text","text":"hello"}],"isError":false}'],
    ["See https://example.com/docs?page=2 and http://localhost:3000/api for details."],
    ["a password is asked for at login; the token expires in an hour"],
    // A key of every approval record, and words a tool's description uses.
    ['{"type":"approval_decided","argumentSecrets":[]}'],
    ["Return text holding a secret. Keep your Secret Key safe."],
    ["lorem ipsum dolor sit amet ".repeat(4000)],
  ])("keeps ordinary text away from secretlint: %j", async (text) => {
    expect(await reported(text)).toEqual([]);
    expect(secretlintMightReport(text)).toBe(false);
  });
});
