import { machine, release, version } from 'node:os';
import type { MarkerEnvironment } from './evaluate-marker.js';

/**
 * Marker values for this machine when no interpreter may be asked: the platform from Node, the Python
 * version from the environment's layout. python_full_version stays unknown unless three parts are known.
 */
export function describeHostMarkers(pythonVersion: string | null): MarkerEnvironment {
  const platform = process.platform;
  const system =
    platform === 'linux'
      ? 'Linux'
      : platform === 'darwin'
        ? 'Darwin'
        : platform === 'win32'
          ? 'Windows'
          : platform;
  const markers: Record<string, string> = {
    os_name: platform === 'win32' ? 'nt' : 'posix',
    sys_platform: platform,
    platform_system: system,
    platform_machine: machine(),
    platform_release: release(),
    platform_version: version(),
    platform_python_implementation: 'CPython',
    implementation_name: 'cpython',
  };
  if (pythonVersion !== null) {
    const parts = pythonVersion.split('.');
    markers.python_version = parts.slice(0, 2).join('.');
    if (parts.length >= 3) {
      markers.python_full_version = pythonVersion;
      markers.implementation_version = pythonVersion;
    }
  }
  return markers;
}
