import { userSettingsDir } from "../config/user-settings.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { openUrlWith } from "../person/open-url.js";
import type { OAuthOptions, SignInPerson } from "../oauth/server-auth.js";
import { OAuthStore } from "../oauth/token-store.js";

/** The user's OAuth store, in their settings folder (never a project's). */
export function userOAuthStore(env: NodeJS.ProcessEnv): OAuthStore {
  return new OAuthStore(userSettingsDir(env));
}

/**
 * OAuth for one process: the user's store, every token learned by the redactor, pages opened
 * through $BROWSER or the platform's opener, and `person` asked when a sign-in is needed (none
 * in one-shot mode and the developer commands, which name the command that signs in instead).
 */
export function sessionOAuth(
  env: NodeJS.ProcessEnv,
  redactor: SecretRedactor,
  person: () => SignInPerson | undefined,
): OAuthOptions {
  return {
    store: userOAuthStore(env),
    learnSecret: (secret) => redactor.learn(secret),
    person,
    openUrl: openUrlWith(env),
  };
}
