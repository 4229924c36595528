/** A fake key, shaped like a real OpenAI project key so the redaction rules recognise it. */
export const FAKE_OPENAI_KEY = `sk-proj-${"Ab3".repeat(16)}`;
