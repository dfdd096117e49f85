import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-ray-duplicate-node-ip',
  title: 'Ray nodes do not report one distinct IP each',
  category: 'distributed-ray',
  engines: ['vllm'],
  keywords: ['every node should have a unique ip address'],
  match: {
    message:
      /Every node should have a unique IP address\.(?: Got (?<nodes>\d+) nodes with node ids [^\n]*? and (?<ips>\d+) unique IP addresses)?/,
  },
  explanation:
    'vLLM maps Ray workers to machines by IP address and found that the number of Ray nodes and the number ' +
    'of distinct worker IPs disagree. Typically two nodes report the same IP (containers on a ' +
    'bridge network, a copied VLLM_HOST_IP) or one node reports two (the driver picked another interface than ' +
    'the one `ray start` registered).',
  fix: 'On every node set VLLM_HOST_IP to that node’s own IP and start Ray with the same address (`ray start --node-ip-address $VLLM_HOST_IP ...`); run the containers with `--network host`.',
  action: [
    {
      kind: 'step',
      text: 'On every node set VLLM_HOST_IP to that node’s own IP and start Ray with the same address (ray start --node-ip-address $VLLM_HOST_IP ...); run the containers on the host network; check for stale or duplicate nodes:',
    },
    { kind: 'command', argv: ['ray', 'status'], where: 'server' },
  ],
  alternative:
    'Check `ray status` for stale or duplicate nodes (e.g. two Ray nodes in one machine) and restart the cluster ' +
    'with exactly one Ray node per host.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/executor/ray_distributed_executor.py',
    'https://github.com/vllm-project/vllm/issues/4508',
  ],
});
