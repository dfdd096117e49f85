import { defineEngineProgress } from '../define-engine-progress.js';

// Messages as text-generation-inference's launcher and router log them (launcher/src/main.rs,
// router/src/main.rs and server.rs).
export default defineEngineProgress({
  engine: 'tgi',
  command: /text-generation-launcher|text-generation-inference/,
  detect: [/text_generation_launcher/, /text_generation_router/],
  phases: [
    { id: 'arguments', label: 'arguments', lines: [/text_generation_launcher: Args \{/] },
    { id: 'download', label: 'downloading weights', lines: [/Starting download process\./] },
    {
      id: 'weights-present',
      label: 'weights present',
      lines: [/Successfully downloaded weights\./, /Files are already present on the host/],
    },
    {
      id: 'loading-weights',
      label: 'starting shards',
      lines: [/Starting shard rank=\d+/, /Waiting for shard to be ready\.\.\. rank=\d+/],
    },
    {
      id: 'shards-ready',
      label: 'shards ready',
      lines: [/Shard ready in (?<shardSeconds>\d+(?:\.\d+)?)s rank=\d+/],
    },
    { id: 'webserver', label: 'starting webserver', lines: [/Starting Webserver/] },
    { id: 'warmup', label: 'warming up', lines: [/Warming up model/] },
    {
      id: 'kv-cache',
      label: 'KV cache',
      lines: [/Setting max batch total tokens to (?<kvCacheTokens>\d+)/],
    },
  ],
  facts: [],
  ready: [/text_generation_router[\w:]*: (?:[\w/.]+\.rs:\d+: )?Connected\s*$/, /Starting HTTP server: /],
  modelList: '/v1/models',
});
