import { defineEngineProgress } from '../define-engine-progress.js';

// Messages as `ollama serve` logs them (server/routes.go, discover/*.go, llm/server.go). Ollama loads a
// model on the first request, after it listens: those lines come after ready.
export default defineEngineProgress({
  engine: 'ollama',
  command: /(?:^|[\s/])ollama(?:\s|$)/,
  detect: [/level=\w+ source=\w+\.go:\d+ msg=/, /\bserver config env="map\[/, /\[GIN\] \d{4}\/\d\d\/\d\d/],
  phases: [
    { id: 'arguments', label: 'server config', lines: [/msg="server config"|\bserver config env="map\[/] },
    {
      id: 'blobs',
      label: 'reading models',
      lines: [/msg="total blobs: \d+"/, /msg="total unused blobs removed: /],
    },
  ],
  facts: [],
  ready: [/msg="Listening on [^"]+"/, /Listening on \S+:\d+ \(version /],
  modelList: '/v1/models',
});
