import { createDiagnosisSession } from '../diagnosis/index.js';
import { superviseServer, type SuperviseOptions, type SupervisionResult } from './supervise-server.js';

/**
 * The supervision core with the real diagnosis and no output: what `vigil run --quiet --no-preflight`
 * does around a server, callable from the benchmark (a server printing 5,000 lines/s, CPU measured).
 */
export async function followServer(
  command: string,
  args: readonly string[],
  options: Partial<SuperviseOptions> = {},
): Promise<SupervisionResult> {
  const handle = await superviseServer({
    command,
    args,
    stdout: null,
    stderr: null,
    createDiagnosisSession: () => createDiagnosisSession(),
    ...options,
  });
  return handle.done;
}
