/**
 * One fake credential of each family Vigil redacts, with the part that must never be printed. Shared by the
 * unit table and the CLI table (every format, every command), so a new family is tested everywhere at once.
 * The shapes follow gitleaks' rules; the values are made up.
 */
export interface SecretSample {
  family: string;
  /** The text as a log or a config shows it. */
  text: string;
  /** What must not survive redaction. */
  secret: string;
}

const PEM_BODY = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
].join('\n');

export const SECRET_SAMPLES: readonly SecretSample[] = [
  {
    family: 'Hugging Face token',
    text: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
    secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
  },
  {
    family: 'GitLab personal access token',
    text: 'glpat-Xy9zAb3dEf6hIj9kLm0p',
    secret: 'Xy9zAb3dEf6hIj9kLm0p',
  },
  {
    family: 'Slack bot token',
    text: 'xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
    secret: '1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  },
  {
    family: 'Slack user token',
    text: 'xoxp-1234567890123-1234567890123-1234567890123-0123456789abcdef0123456789abcdef',
    secret: '0123456789abcdef0123456789abcdef',
  },
  {
    family: 'Stripe live secret key',
    text: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
    secret: '4eC39HqLyjWDarjtT1zdp7dc',
  },
  {
    family: 'Stripe restricted key',
    text: 'rk_live_51H8AbCdEfGhIjKlMnOpQr',
    secret: '51H8AbCdEfGhIjKlMnOpQr',
  },
  {
    family: 'JWT',
    text: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    secret: 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  },
  {
    family: 'GCP API key',
    text: 'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
    secret: 'SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
  },
  {
    family: 'Azure storage account key',
    text: 'DefaultEndpointsProtocol=https;AccountName=vigil;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=;EndpointSuffix=core.windows.net',
    secret: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A',
  },
  {
    family: 'Azure AD client secret',
    text: 'client secret abC8Q~dEfGhIjKlMnOpQrStUvWxYz0123456789 rejected',
    secret: 'dEfGhIjKlMnOpQrStUvWxYz0123456789',
  },
  {
    family: 'NVIDIA NGC key',
    text: 'nvapi-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUv',
    secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  },
  {
    family: 'bare AWS secret key',
    text: 'credentials AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY were refused',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  {
    family: 'bare W&B key',
    text: 'wandb: ERROR API key 0123456789abcdef0123456789abcdef01234567 is invalid',
    secret: '0123456789abcdef0123456789abcdef01234567',
  },
  { family: 'short Bearer token', text: 'upstream sent Bearer s3cr3t', secret: 's3cr3t' },
  {
    family: 'PEM private key',
    text: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`,
    secret: 'MzEfYyjiWA4R4',
  },
  {
    family: 'PEM private key in JSON',
    text: `{"private_key": "-----BEGIN RSA PRIVATE KEY-----\\n${PEM_BODY.replace('\n', '\\n')}\\n-----END RSA PRIVATE KEY-----\\n"}`,
    secret: 'MzEfYyjiWA4R4',
  },
  {
    family: 'PEM body line alone',
    text: 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
    secret: 'MzEfYyjiWA4R4',
  },
  { family: 'URL password', text: 'postgresql://vigil:dbpa55word@db:5432/x', secret: 'dbpa55word' },
  {
    family: 'api_key argument',
    text: `non-default args: {"api_key": "k3y-0123456789abcdef"}`,
    secret: 'k3y-0123456789abcdef',
  },
];
