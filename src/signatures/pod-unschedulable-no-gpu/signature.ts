import { defineSignature } from '../define-signature.js';

// The scheduler's own words: the pod waits, Pending, and the server never starts.
export default defineSignature({
  id: 'pod-unschedulable-no-gpu',
  title: 'no node has the GPUs the pod asks for: it was never scheduled',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['nodes are available'],
  match: {
    exception: null,
    message: /\d+\/\d+ nodes are available: .*?\bInsufficient (?<resource>[\w.-]+\/gpu[\w.-]*)/,
  },
  explanation:
    'The pod asks for more {resource} than any node has free, so the scheduler placed it nowhere: it stays ' +
    'Pending and the server never starts. Either other pods hold the GPUs, the nodes have fewer than asked ' +
    'for (a tensor-parallel size larger than one node), or the device plugin does not advertise them.',
  fix: 'See which nodes advertise {resource} and what holds them: kubectl describe nodes | grep -A8 Allocated; free GPUs, ask for fewer, or fix the device plugin',
  action: [
    {
      kind: 'step',
      text: 'See what each node advertises and what already holds it (`kubectl describe nodes`, the "Allocatable" and "Allocated resources" lists). Free GPUs, ask for no more than one node has, or, where a node shows none, fix its device plugin (its pod in kube-system).',
    },
  ],
  references: [
    'https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/',
    'https://github.com/NVIDIA/k8s-device-plugin/issues/245',
  ],
});
