import { EnvironmentError, SourceError } from '../errors.js';
import { runCommand } from '../system/run-command.js';
import type { MarkerEnvironment } from './evaluate-marker.js';
import { findExecutable } from './find-executable.js';

export interface InterpreterFacts {
  executable: string;
  pythonVersion: string;
  /** Existing folders on sys.path, in order. */
  path: string[];
  markers: MarkerEnvironment;
}

// Asked once, isolated (-I: no PYTHONPATH, no user site, no cwd), for its search path and marker values.
const SCRIPT = `
import json, os, platform, sys
def fmt(v):
    s = "%d.%d.%d" % (v.major, v.minor, v.micro)
    return s if v.releaselevel == "final" else s + v.releaselevel[0] + str(v.serial)
i = sys.implementation
print(json.dumps({"executable": sys.executable, "path": [p for p in sys.path if p and os.path.isdir(p)],
  "markers": {"implementation_name": i.name, "implementation_version": fmt(i.version), "os_name": os.name,
  "platform_machine": platform.machine(), "platform_release": platform.release(),
  "platform_system": platform.system(), "platform_version": platform.version(),
  "platform_python_implementation": platform.python_implementation(),
  "python_full_version": platform.python_version(),
  "python_version": ".".join(platform.python_version_tuple()[:2]), "sys_platform": sys.platform}}))
`;

export async function queryInterpreter(
  python: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<InterpreterFacts> {
  const program = findExecutable(python, env, cwd);
  if (program === null) {
    throw new EnvironmentError(
      `${python} was not found${python.includes('/') ? '' : ' on PATH'}; give --python, --venv or --site-packages`,
    );
  }
  let result;
  try {
    result = await runCommand(program, ['-I', '-c', SCRIPT], { timeoutMs: 15_000, env });
  } catch (error) {
    const message = error instanceof SourceError ? error.message : String(error);
    throw new EnvironmentError(`cannot ask the interpreter ${python}: ${message}`, { cause: error });
  }
  const firstError = result.stderr.trim().split('\n').pop() ?? '';
  if (result.code !== 0) {
    throw new EnvironmentError(`${python} -I failed (exit ${String(result.code)}): ${firstError}`);
  }
  try {
    const data = JSON.parse(result.stdout) as {
      executable: string;
      path: string[];
      markers: Record<string, string>;
    };
    return {
      executable: data.executable,
      pythonVersion: data.markers.python_full_version ?? '',
      path: data.path,
      markers: data.markers,
    };
  } catch (error) {
    throw new EnvironmentError(`${python} did not print its paths as expected; is it a Python interpreter?`, {
      cause: error,
    });
  }
}
