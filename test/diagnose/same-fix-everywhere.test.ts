import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, tempDir } from '../hostile/cli-harness.js';
import { sshdMissing, startSshd, type TestSshd } from '../helpers/start-sshd.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';

// The bundled incident (flashinfer-cubin 0.6.3 beside flashinfer 0.6.4), its venv on this machine and built by
// uv: every command that prints a fix for it prints the same command, each a real vigil process on real files.

const ROOT = resolve(import.meta.dirname, '../..');
const INCIDENT = readFileSync(join(ROOT, 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log'), 'utf8');
const REPLAY = join(ROOT, 'test/supervision/fixtures/replay-log.mjs');
const UNIT = 'vllm-kimi-k25.service';

function writeDistribution(site: string, name: string, version: string): void {
  const folder = join(site, `${name.replaceAll('-', '_')}-${version}.dist-info`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`);
  writeFileSync(join(folder, 'INSTALLER'), 'uv\n');
}

/** The incident's venv as uv left it before the reinstall: flashinfer-python and its kernels both 0.6.3. */
function makeUvVenvBefore(root: string): { venv: string; site: string } {
  const venv = join(root, 'opt', 'vllm', '.venv');
  const site = join(venv, 'lib', 'python3.12', 'site-packages');
  writeDistribution(site, 'flashinfer-python', '0.6.3');
  writeDistribution(site, 'flashinfer-cubin', '0.6.3');
  writeDistribution(site, 'torch', '2.10.0+cu130');
  mkdirSync(join(site, 'torch'));
  writeFileSync(join(site, 'torch', 'version.py'), "__version__ = '2.10.0+cu130'\ncuda = '13.0'\n");
  writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /usr/bin\nuv = 0.9.5\n');
  // The interpreter a console script names: it "runs" the server by exiting at once.
  mkdirSync(join(venv, 'bin'));
  writeFileSync(join(venv, 'bin', 'python'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(venv, 'bin', 'python'), 0o755);
  return { venv, site };
}

/** The reinstall of the incident: flashinfer-python moves to 0.6.4, flashinfer-cubin stays at 0.6.3. */
function upgradeFlashinferPython(site: string): void {
  const folder = join(site, 'flashinfer_python-0.6.4.dist-info');
  renameSync(join(site, 'flashinfer_python-0.6.3.dist-info'), folder);
  writeFileSync(join(folder, 'METADATA'), 'Metadata-Version: 2.1\nName: flashinfer-python\nVersion: 0.6.4\n');
}

/** Every fix line of a text report (diagnose's `fix  ...`, check's `fix: ...`), its ` \` breaks joined. */
function fixLines(report: string): string[] {
  const joined = report.replace(/ \\\n\s+/g, ' ');
  return [...joined.matchAll(/^\s*fix(?::\s|\s{2,})(.+)$/gm)].map((match) => match[1] ?? '');
}

function verifyLines(report: string): string[] {
  const joined = report.replace(/ \\\n\s+/g, ' ');
  return [...joined.matchAll(/^\s*verify\s+(.+)$/gm)].map((match) => match[1] ?? '');
}

/** The incident as it happened, on this machine: the snapshot before the reinstall, then the mismatch. */
async function stageIncident(): Promise<{ root: string; venv: string; log: string; snapshot: string }> {
  const root = await tempDir();
  const { venv, site } = makeUvVenvBefore(root);
  const snapshot = join(root, 'before.json');
  const before = await spawnVigil(['snapshot', '--venv', venv]);
  expect(before.code).toBe(0);
  writeFileSync(snapshot, before.stdout);
  upgradeFlashinferPython(site);
  const log = join(root, 'incident.log');
  writeFileSync(log, INCIDENT.replaceAll('/opt/vllm/.venv', venv));
  return { root, venv, log, snapshot };
}

const installFor = (venv: string): string =>
  `uv pip install --python ${venv}/bin/python flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl`;

/** A console script of the venv, as `vllm` is: its shebang names the venv's interpreter. */
function writeConsoleScript(root: string, venv: string): string {
  const server = join(root, 'srv', 'bin', 'vllm');
  mkdirSync(join(server, '..'), { recursive: true });
  writeFileSync(server, `#!${venv}/bin/python\n`);
  chmodSync(server, 0o755);
  return server;
}

describe.skipIf(JOURNAL_REMOTE === undefined)(
  'the bundled incident in a uv-built venv: one fix from every command',
  () => {
    it('diagnose, run, its pre-flight, watch --unit, check and check --against print the same fix', async () => {
      const { root, venv, log, snapshot } = await stageIncident();
      const journal = join(root, 'incident.journal');
      const entries = entriesFromShortLog(INCIDENT.replaceAll('/opt/vllm/.venv', venv), { unit: UNIT });
      await writeJournalFile(entries, journal);
      const runLog = ['--', process.execPath, REPLAY, log, '--exit', '1'];
      const [diagnosed, ran, preflight, watched, checked, against] = await Promise.all([
        spawnVigil(['diagnose', log]),
        spawnVigil(['run', '--no-preflight', '--quiet', '--no-history', ...runLog]),
        spawnVigil(['run', '--quiet', '--no-history', '--', writeConsoleScript(root, venv), 'serve', 'M'], {
          env: { PATH: join(root, 'empty') },
        }),
        spawnVigil(['watch', '--unit', UNIT, '--journal-file', journal, '--no-follow']),
        spawnVigil(['check', '--venv', venv]),
        spawnVigil(['check', '--venv', venv, '--against', snapshot]),
      ]);
      expect([diagnosed, ran, preflight, watched, checked, against].map((result) => result.code)).toEqual([
        1, 1, 78, 1, 1, 1,
      ]);
      // The pre-flight's report goes to stderr (stdout is the server's); check --against has two findings
      // for the one problem (the mismatch, the family that moved in part).
      expect(against.stdout).toContain('[family-moved-in-part]');
      const fixes = {
        diagnose: fixLines(diagnosed.stdout),
        run: fixLines(ran.stdout),
        preflight: fixLines(preflight.stderr),
        watch: fixLines(watched.stdout),
        check: fixLines(checked.stdout),
        against: fixLines(against.stdout),
      };
      const install = installFor(venv);
      expect(fixes).toEqual({
        diagnose: [install],
        run: [install],
        preflight: [install],
        watch: [install],
        check: [install],
        against: [install, install],
      });
      const verify = [`vigil check --venv ${venv}`];
      expect([diagnosed, ran, watched].map((result) => verifyLines(result.stdout))).toEqual([
        verify,
        verify,
        verify,
      ]);
    }, 120_000);

    describe.skipIf(sshdMissing() !== null)('with --ssh gpu-1 (a real sshd on 127.0.0.1)', () => {
      let sshd: TestSshd;
      let config: string;
      beforeAll(async () => {
        sshd = await startSshd();
        // The incident's host name, an alias of the test sshd in its own ssh config.
        config = join(sshd.dir, 'gpu-1.config');
        writeFileSync(config, readFileSync(sshd.config, 'utf8').replace(/^Host .*$/m, 'Host gpu-1'));
      }, 30_000);
      afterAll(async () => {
        await sshd?.stop();
      });

      it('diagnose, watch --unit, check and check --against: the same command run there, verified there', async () => {
        const { root, venv, log, snapshot } = await stageIncident();
        const journal = join(root, 'incident.journal');
        const entries = entriesFromShortLog(INCIDENT.replaceAll('/opt/vllm/.venv', venv), { unit: UNIT });
        await writeJournalFile(entries, journal);
        const ssh = ['--ssh', 'gpu-1', '--ssh-config', config];
        const [diagnosed, watched, checked, against] = await Promise.all([
          spawnVigil(['diagnose', ...ssh, log]),
          spawnVigil(['watch', ...ssh, '--unit', UNIT, '--journal-file', journal, '--no-follow']),
          spawnVigil(['check', ...ssh, '--venv', venv]),
          spawnVigil(['check', ...ssh, '--venv', venv, '--against', snapshot]),
        ]);
        expect([diagnosed, watched, checked, against].map((result) => result.code)).toEqual([1, 1, 1, 1]);
        const remote = `ssh gpu-1 '${installFor(venv)}'`;
        expect({
          diagnose: fixLines(diagnosed.stdout),
          watch: fixLines(watched.stdout),
          check: fixLines(checked.stdout),
          against: fixLines(against.stdout),
        }).toEqual({ diagnose: [remote], watch: [remote], check: [remote], against: [remote, remote] });
        const verify = [`vigil check --venv ${venv} --ssh gpu-1`];
        expect([diagnosed, watched].map((result) => verifyLines(result.stdout))).toEqual([verify, verify]);
      }, 120_000);
    });
  },
);
