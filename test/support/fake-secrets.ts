/** A fake key, shaped like a real OpenAI project key so the redaction rules recognise it. */
export const FAKE_OPENAI_KEY = `sk-proj-${"Ab3".repeat(16)}`;

/**
 * A fake Linear API key: secretlint's preset knows its shape, mcpterm's own patterns do not, so
 * only the full rule set takes it out.
 */
export const FAKE_LINEAR_KEY = `lin_api_${"k3Yq9ZrT".repeat(5)}`;
