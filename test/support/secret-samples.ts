const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const run = (length: number, alphabet = ALNUM, offset = 0): string =>
  Array.from({ length }, (_, index) => alphabet[(index * 7 + offset) % alphabet.length]).join("");

/** Texts each of mcpterm's own patterns (secret-patterns.ts) finds something in. */
export const SECRET_SAMPLES: readonly string[] = [
  `-----BEGIN RSA PRIVATE KEY-----\nMII${run(40)}\n-----END RSA PRIVATE KEY-----`,
  `-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE`,
  `sk-ant-api03-${run(30)}`,
  `key sk-proj-${run(36)} end`,
  `sk-${run(24)}`,
  "AKIAIOSFODNN7EXAMPLQ ASIA0123456789ABCDEF",
  `ghp_${run(36)} github_pat_${run(40)}`,
  `xoxb-${run(20)}`,
  `AIza${run(35)}`,
  `npm_${run(36)}`,
  `glpat-${run(20)}`,
  `hf_${run(30)}`,
  `sk_live_${run(24)} rk_test_${run(30)}`,
  `SG.${run(22, `${ALNUM}-_`)}.${run(43)}`,
  `shpat_${run(32, "0123456789abcdef")}`,
  `eyJ${run(12)}.eyJ${run(12)}.${run(12)}`,
  "Authorization: Bearer abcdefghijklmnop1234567890",
  "bearer\tabcdefghijklmnop1234567890==",
  "Authorization: Basic dXNlcjpwYXNzd29yZA==",
  '{"Proxy-Authorization":"Digest username=ann, response=6629fae49393a05397450978507c4ef1"}',
  "Cookie: sid=abcdef0123456789; theme=dark",
  '{"set-cookie": "session=abcdef0123456789; HttpOnly"}',
  "https://user:hunter2@example.com/x postgres://app:s3cret-pw@db/app",
  "machine api.example.com login ann password hunter2hunter2",
  "machine example.com\n  login ann\n  password s3cr3t-pw",
  '{"auths":{"ghcr.io":{"auth":"YW5uOnMzY3IzdC1wYXNzd29yZA=="}}}',
  '{"IdentityToken" : "YW5uOnMzY3IzdC1wYXNzd29yZA=="}',
  '{"password": "correct horse battery"}',
  "API_KEY=abcdefgh12345678 client-secret: 'hush hush hush' PWD = s3cr3t-pw-123",
  'Access_Token:zzzzzzzzzzzz auth-token = "a b c d e f" passwd="hunter22"',
  `{"AWS_SECRET_ACCESS_KEY": "${run(40)}"} secretAccessKey=${run(40, ALNUM, 3)}`,
  `SECRET_KEY = 'django-insecure-${run(20)}' secret_key_base: ${run(64, "0123456789abcdef")}`,
];
