import { describe, expect, it } from 'vitest';
import { makeContext, makeDistribution } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('duplicate-distribution', () => {
  it('is an error for two copies in one folder', () => {
    const context = makeContext([
      makeDistribution({ name: 'torch', version: '2.10.0' }),
      makeDistribution({ name: 'torch', version: '2.9.1' }),
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'error', packages: ['torch'] }]);
  });

  it('is a warning when one folder shadows another', () => {
    const context = makeContext([
      makeDistribution({ name: 'numpy', version: '2.2.6' }, '/venv/lib/python3.11/site-packages'),
      makeDistribution({ name: 'numpy', version: '1.26.4' }, '/usr/lib/python3/dist-packages'),
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'warning' }]);
  });

  const dpkg = (
    spec: { name: string; version: string },
    path: string,
    folder = '/usr/lib/python3/dist-packages',
  ) => ({
    ...makeDistribution(spec, folder),
    installer: null,
    managedBy: 'dpkg',
    metadataPath: `${folder}/${path}`,
  });

  it("is quiet for one dpkg package's .dist-info and .egg-info (Debian's python3-cryptography)", () => {
    const context = makeContext([
      dpkg({ name: 'cryptography', version: '38.0.4' }, 'cryptography-38.0.4.dist-info'),
      dpkg({ name: 'cryptography', version: '38.0.4' }, 'cryptography.egg-info'),
    ]);
    expect(check.run(context)).toEqual([]);
  });

  it.each([
    ['pip in /usr/local over the dpkg package', '/usr/local/lib/python3.11/dist-packages'],
    ['pip --break-system-packages into the dpkg folder', '/usr/lib/python3/dist-packages'],
  ])('never deletes what dpkg owns: %s', (_name, folder) => {
    const owned = dpkg({ name: 'cryptography', version: '38.0.4' }, 'cryptography-38.0.4.dist-info');
    const context = makeContext([
      makeDistribution({ name: 'cryptography', version: '44.0.0' }, folder),
      owned,
    ]);
    const [problem] = check.run(context);
    expect(problem?.severity).toBe('warning');
    expect(problem?.fix).toMatch(/^uninstall the copy in /);
    expect(problem?.fix).toContain(`leave ${owned.metadataPath} to dpkg (dpkg -S ${owned.metadataPath})`);
    expect(problem?.fix).not.toMatch(/remove|rm /);
  });

  it('is quiet for distinct names', () => {
    expect(
      check.run(
        makeContext([
          { name: 'torch', version: '2.10.0' },
          { name: 'torchvision', version: '0.25.0' },
        ]),
      ),
    ).toEqual([]);
  });
});
