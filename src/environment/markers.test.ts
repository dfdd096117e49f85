import { describe, expect, it } from 'vitest';
import { evaluateMarker, type MarkerEnvironment } from './evaluate-marker.js';
import { parseMarker } from './parse-marker.js';

const linux: MarkerEnvironment = {
  os_name: 'posix',
  sys_platform: 'linux',
  platform_system: 'Linux',
  platform_machine: 'x86_64',
  platform_release: '6.8.0-1019-aws',
  platform_python_implementation: 'CPython',
  implementation_name: 'cpython',
  python_version: '3.11',
  python_full_version: '3.11.7',
  implementation_version: '3.11.7',
};

describe('evaluateMarker', () => {
  it.each([
    ['platform_system == "Linux" and platform_machine == "x86_64"', '', true],
    ['sys_platform == "darwin"', '', false],
    ['"linux" == sys_platform', '', true],
    ['python_version < "3.15"', '', true],
    ['python_version >= "3.12"', '', false],
    ["python_version > '3.9'", '', true],
    ['python_full_version >= "3.11.4"', '', true],
    ['python_version == "3.11.*"', '', true],
    ['python_version == "3.1.*"', '', false],
    ['python_full_version == "3.11.*"', '', true],
    ['python_version in "3.10 3.11 3.12"', '', true],
    ['platform_machine not in "aarch64 arm64"', '', true],
    // Not PEP 440 (`-aws`): compared as strings, where ordered operators mean equality (PEP 508).
    ['platform_release >= "5.0"', '', false],
    ['os.name == "posix"', '', true],
    ['python_implementation == "CPython"', '', true],
    ['sys_platform == "win32" or (python_version >= "3.8" and os_name == "posix")', '', true],
    ['sys_platform == "win32" or python_version >= "3.8" and os_name == "nt"', '', false],
    ['extra == "cuda"', '', false],
    ['extra == "cuda"', 'cuda', true],
    ['extra == "Flash_Infer"', 'flash-infer', true],
    ['(python_version < "3.15") and extra == "cu13"', 'cu13', true],
    ['extra != "cuda"', '', true],
    ['sys_platform > "linux"', '', false],
    ['sys_platform >= "linux"', '', true],
  ])('%s (extra %j) → %s', (text, extra, expected) => {
    expect(evaluateMarker(parseMarker(text), linux, extra)).toBe(expected);
  });

  it.each([
    ['python_full_version >= "3.11.4"', null],
    ['python_full_version >= "3.11.4" and sys_platform == "darwin"', false],
    ['python_full_version >= "3.11.4" or sys_platform == "linux"', true],
  ])('is three-valued when a variable is unknown: %s → %s', (text, expected) => {
    const partial: MarkerEnvironment = { ...linux, python_full_version: undefined };
    expect(evaluateMarker(parseMarker(text), partial, '')).toBe(expected);
  });

  it.each(['python_version <', 'foo == "1"', 'python_version == "3" and', '(os_name == "posix"'])(
    'rejects %j',
    (text) => {
      expect(() => parseMarker(text)).toThrow();
    },
  );
});
