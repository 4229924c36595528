/**
 * Files that hold secrets by their nature, by name: `@.env` is refused outright rather than sent
 * with its values redacted, since a redaction rule can miss a password that looks like a word.
 * The names are the ones tools and clouds write (dotenv and direnv, ssh, npm, pip, netrc, git,
 * AWS, TLS), and `prod.env` or `secrets.yaml` by what they say they are.
 */
const SECRET_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".git-credentials",
  ".pgpass",
  ".htpasswd",
  ".dockercfg",
  ".envrc",
  ".flaskenv",
  "credentials",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
]);
const SECRET_EXTENSIONS = new Set([".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".tfstate", ".env"]);
/** `secrets.yaml`, `secrets.json`, `secret.toml` and the like. */
const SECRETS_FILE = /^secrets?\.[a-z0-9]+$/;
/** Folders whose every file is a secret or a key. */
const SECRET_FOLDERS = new Set([".ssh", ".aws", ".gnupg", ".docker"]);
/** `.env.example` and its kind are templates, written to be shared. */
const ENV_TEMPLATES = /^\.env\.(example|sample|template|dist|defaults)$/i;

/** Whether the file at `relativePath` (inside the working folder) holds secrets by its name. */
export function isSecretFile(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/).filter((part) => part !== "");
  const name = (parts.at(-1) ?? "").toLowerCase();
  if (parts.slice(0, -1).some((part) => SECRET_FOLDERS.has(part.toLowerCase()))) return true;
  if (name === ".env" || (name.startsWith(".env.") && !ENV_TEMPLATES.test(name))) return true;
  if (SECRET_NAMES.has(name) || SECRETS_FILE.test(name)) return true;
  const dot = name.lastIndexOf(".");
  return dot > 0 && SECRET_EXTENSIONS.has(name.slice(dot));
}
