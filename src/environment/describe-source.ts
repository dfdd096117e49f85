import { redactText } from '../redaction/redact-text.js';

/** Turns direct_url.json (PEP 610) into one string a snapshot can compare; `index` when there is none. */
export function describeSource(directUrlJson: string | null): string {
  if (directUrlJson === null) return 'index';
  let data: unknown;
  try {
    data = JSON.parse(directUrlJson);
  } catch {
    return 'unknown (direct_url.json is not JSON)';
  }
  if (typeof data !== 'object' || data === null) return 'unknown';
  const record = data as Record<string, unknown>;
  const url = typeof record.url === 'string' ? withoutCredentials(record.url) : '';
  const vcs = record.vcs_info as Record<string, unknown> | undefined;
  if (vcs !== undefined && typeof vcs === 'object') {
    const commit = typeof vcs.commit_id === 'string' ? `@${vcs.commit_id}` : '';
    return `${typeof vcs.vcs === 'string' ? vcs.vcs : 'vcs'}+${url}${commit}`;
  }
  const dir = record.dir_info as Record<string, unknown> | undefined;
  if (dir !== undefined && typeof dir === 'object' && dir.editable === true) return `editable ${url}`;
  return url === '' ? 'unknown' : url;
}

/**
 * The URL without the credentials pip recorded in it (`https://oauth2:glpat-...@gitlab.com/x.git`,
 * `https://ghp_...@github.com/x`): a snapshot is shared and diffed, and the source is the same without them.
 * ssh's `git@host` names a user, not a secret, and stays. A secret elsewhere in it (`?token=`,
 * `&access_token=`, a token in the path) is redacted.
 */
function withoutCredentials(url: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/@]*)@/.exec(url);
  if (m === null) return redactText(url);
  const [whole, scheme = '', userinfo = ''] = m;
  const keep = /^(?:git\+)?ssh:/i.test(scheme) && !userinfo.includes(':') ? `${userinfo}@` : '';
  return redactText(`${scheme}${keep}${url.slice(whole.length)}`);
}
