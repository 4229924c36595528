/**
 * A cheap proof that secretlint's recommended preset cannot report anything in a text, so the
 * full run (about 0.1-0.2 ms even for "x", and a line index built over the whole text) is made
 * only for texts that could hold one of its findings.
 *
 * Each rule of the preset reports only matches of its own regular expressions, and each of those
 * contains a fixed piece: a literal prefix (`ghp_`, `glpat-`, `T3BlbkFJ`), or a short pattern that
 * is a part of the rule's own (`://user:password@`). A text with none of the pieces cannot match
 * any rule. The pieces were read from secretlint-rule-preset-recommend 13.1.0 for the source as
 * lintSecrets describes it (SECRETLINT_SOURCE: a `.txt` file, which is why the gcp and npm rules
 * only check what they check there); test/policy/secretlint-gate.test.ts fails when the preset's
 * version or its rule list changes, so a new rule cannot slip past the gate unread.
 */

/** How lintSecrets presents every text to secretlint; the gate's pieces hold for this source only. */
export const SECRETLINT_SOURCE = { filePath: "/tool-result.txt", ext: ".txt", contentType: "text" } as const;

/** The preset the pieces below were read from. */
export const GATED_PRESET_VERSION = "13.1.0";

/**
 * Per rule (its id without `@secretlint/secretlint-rule-`), a pattern every one of its findings
 * contains. `null`: the rule reports nothing for SECRETLINT_SOURCE.
 */
export const RULE_PIECES: Readonly<Record<string, RegExp | null>> = {
  // Only AWS_SECRET_ACCESS_KEY=… is checked by default (enableIDScanRule is off); the name is
  // the rule's own, so a word like `argumentSecrets` (a key of every approval record) is not it.
  aws: /(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)/,
  // Checks only `.p12` and `.json` files.
  gcp: null,
  privatekey: /-----BEGIN/,
  // Outside package.json and .npmrc, only npm_ access tokens.
  npm: /npm_/,
  // `protocol://user:password@host`; the user and password parts are the rule's own classes.
  basicauth: /:\/\/[-a-zA-Z0-9_]+:[-a-zA-Z0-9_]+@/,
  // Tokens, and incoming webhooks (the rule matches those ignoring case).
  slack: /xoxb-|xoxp-|xapp-|xoxa-|xoxo-|xoxr-|https:\/\/hooks\.slack\.com\/services\//i,
  sendgrid: /SG\./,
  shopify: /shppa_|shpca_|shpat_|shpss_/,
  stripe: /sk_live_|sk_test_|rk_live_|rk_test_/,
  github: /ghp_|gho_|ghu_|ghs_|ghr_|github_pat_/,
  gitlab: /glpat-/,
  grafana: /glc_|glsa_/,
  // Both of its forms carry `T3BlbkFJ` (base64 of "OpenAI").
  openai: /T3BlbkFJ/,
  anthropic: /sk-ant-api0/,
  groq: /gsk_/,
  huggingface: /hf_/,
  linear: /lin_api_/,
  notion: /ntn_/,
  "1password": /ops_ey/,
  // Matched ignoring case, as the rule does.
  "database-connection-string": /mongodb(?:\+srv)?:\/\/|mysqlx?:\/\/|postgres(?:ql)?:\/\//i,
  "hashicorp-vault": /hvs\.|hvb\.|hvr\./,
  vercel: /vcp_|vci_|vca_|vcr_|vck_/,
  databricks: /dapi/,
  docker: /dckr_pat_/,
  figma: /figd_/,
  cloudflare: /cfk_|cfut_|cfat_/,
  tailscale: /tskey-/,
  // Only takes findings away (`secretlint-disable` comments), never reports one.
  "filter-comments": null,
};

/** The pieces as two scans, one per flag set, so a text is read at most twice. */
const GATES = ((): RegExp[] => {
  const pieces = Object.values(RULE_PIECES).filter((piece): piece is RegExp => piece !== null);
  const sources = (ignoreCase: boolean): string =>
    pieces
      .filter((piece) => piece.ignoreCase === ignoreCase)
      .map((piece) => piece.source)
      .join("|");
  return [new RegExp(sources(false)), new RegExp(sources(true), "i")];
})();

/** False when secretlint's preset is certain to find nothing in `text`; true when it might. */
export function secretlintMightReport(text: string): boolean {
  return GATES.some((gate) => gate.test(text));
}
