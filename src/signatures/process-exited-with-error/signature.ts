import { defineSignature } from '../define-signature.js';
import { ERROR_EXIT_STATUS } from '../../runtimes/signals/exit-status.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'process-exited-with-error',
  title: 'the server exited with an error status, and its log names no cause',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['exit', 'status='],
  match: {
    exception: null,
    // A status that is no signal's (those have their own signatures): not 0, nor 129-159 (128 + a signal).
    message: new RegExp(ERROR_EXIT_STATUS),
  },
  explanation:
    "The process ended itself with a status other than 0: it met an error and exited. That is no signal: nothing killed it. A program says why before it exits, and this log does not hold it, so it went elsewhere: to stderr where only stdout was kept, to an earlier part of the log, or to the runner's own file. By convention 1 is a general error, 2 a command line the program rejected, 126 a program that could not be run and 127 a command that was not found.",
  fix: "Read what the process printed before it exited: the unit's `systemctl status UNIT` and `journalctl -u UNIT`, `docker logs NAME`, or `kubectl logs --previous POD`, stderr included.",
  action: [
    {
      kind: 'inspect-exit',
    },
    {
      kind: 'step',
      text: 'Read what the process printed before it exited (the whole log of the unit, container or pod, stderr included): its error is there.',
    },
  ],
  references: [
    'https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html',
    'https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html',
  ],
  weight: 0.01,
});
