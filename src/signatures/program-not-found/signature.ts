import { defineSignature } from '../define-signature.js';

// The program was never run: nothing of the server logged anything, so the path is the whole story.
export default defineSignature({
  id: 'program-not-found',
  title: 'the server program could not be run: {program} is missing, not executable or built for another CPU',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['no such file', 'not found', 'exec format', 'permission denied', 'spawning', 'executable'],
  match: {
    exception: null,
    // One group for every wording (Node 20 has no duplicate group names): the lookahead picks the ending.
    message:
      /(?:^exec (?=\S+: (?:no such file or directory|exec format error|permission denied))|(?:^|: )(?:line \d+: )?(?=[\w./+-]+: command not found)|^(?:\/bin\/|\/usr\/bin\/)?\w*sh: \d+: (?=[\w./+-]+: not found)|Failed at step EXEC spawning |Failed to (?:locate|execute) executable )(?<program>[^\s:]+):/,
  },
  explanation:
    "The supervisor (a container's entrypoint, a shell, systemd's ExecStart=) could not run {program}: the path does not exist where the server runs (a virtual environment not created or moved, a script not copied into the image, a name not on the PATH the service gets), the file is not executable, or it was built for another CPU (`exec format error`: an arm64 image on x86_64 or the reverse). systemd reports it as status=203/EXEC, a shell as 127 (not found) or 126 (not executable).",
  fix: "Check the path as the service sees it: `ls -l {program}` and `file {program}` (the CPU it was built for) where the server runs; under systemd, `systemctl cat UNIT` for ExecStart= and its Environment=PATH; in a container, the image's entrypoint and command (`docker inspect NAME`).",
  action: [
    { kind: 'command', argv: ['ls', '-l', '{program}'], where: 'server' },
    { kind: 'command', argv: ['file', '{program}'], where: 'server' },
    {
      kind: 'step',
      text: "Point the unit's ExecStart= or the container's entrypoint at the program's real path, or install the engine there; for exec format error, use the image or build for this machine's CPU.",
    },
  ],
  references: ['https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html'],
});
