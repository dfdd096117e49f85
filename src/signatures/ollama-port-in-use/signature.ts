import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ollama-port-in-use',
  title: 'Ollama port already taken (another Ollama is running)',
  category: 'network-port',
  engines: ['ollama'],
  keywords: ['bind: address already in use', 'only one usage of each socket address'],
  match: {
    message:
      /listen tcp (?<addr>\S*?:(?<port>\d+)): bind: (?:address already in use|Only one usage of each socket address)/,
  },
  explanation:
    '`ollama serve` could not listen on {addr} because something already does. Almost always that is another Ollama ' +
    'server: the systemd service on Linux, the menu-bar app on macOS or the tray app on Windows start one ' +
    'automatically, so a manual `ollama serve` collides with it.',
  fix:
    'Use the running server (the CLI talks to it directly), or stop it first: `sudo systemctl stop ollama` (Linux), quit ' +
    'the Ollama app from the menu bar or tray (macOS, Windows; `Get-Process ollama* | Stop-Process` in PowerShell).',
  action: [
    {
      kind: 'step',
      text: 'Use the running server (the CLI talks to it directly), or find and stop it (systemctl stop ollama; on macOS and Windows quit the app):',
    },
    { kind: 'free-port', port: '{port}' },
  ],
  alternative:
    'To run a second server on purpose, give it another port: `OLLAMA_HOST=127.0.0.1:11435 ollama serve`.',
  references: ['https://github.com/ollama/ollama/issues/3575', 'https://github.com/ollama/ollama/issues/707'],
});
