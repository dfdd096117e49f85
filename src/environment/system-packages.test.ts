import { describe, expect, it } from 'vitest';
import { findSystemOwner } from './system-packages.js';

describe('findSystemOwner', () => {
  it.each([
    ['/usr/lib/python3/dist-packages', null, 'dpkg'],
    ['/usr/lib/python3/dist-packages/', null, 'dpkg'],
    ['/usr/lib/python3/dist-packages', 'pip', undefined],
    ['/usr/lib/python3/dist-packages', 'debian', 'dpkg'],
    ['/usr/lib64/python3.12/site-packages', null, 'the system package manager'],
    ['/usr/lib/python3.12/site-packages', 'rpm', 'rpm'],
    ['/usr/local/lib/python3.11/dist-packages', null, undefined],
    ['/opt/vllm/.venv/lib/python3.12/site-packages', null, undefined],
    ['/opt/vllm/.venv/lib/python3.12/site-packages', 'uv', undefined],
    ['/home/u/.local/lib/python3.11/site-packages', 'debian', 'dpkg'],
  ])('%s with INSTALLER %s → %s', (folder, installer, owner) => {
    expect(findSystemOwner(folder, installer)).toBe(owner);
  });
});
