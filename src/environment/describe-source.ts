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
  const url = typeof record.url === 'string' ? record.url : '';
  const vcs = record.vcs_info as Record<string, unknown> | undefined;
  if (vcs !== undefined && typeof vcs === 'object') {
    const commit = typeof vcs.commit_id === 'string' ? `@${vcs.commit_id}` : '';
    return `${typeof vcs.vcs === 'string' ? vcs.vcs : 'vcs'}+${url}${commit}`;
  }
  const dir = record.dir_info as Record<string, unknown> | undefined;
  if (dir !== undefined && typeof dir === 'object' && dir.editable === true) return `editable ${url}`;
  return url === '' ? 'unknown' : url;
}
