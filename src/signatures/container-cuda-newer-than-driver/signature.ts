import { defineSignature } from '../define-signature.js';

// An image declares the CUDA it needs (NVIDIA_REQUIRE_CUDA); the NVIDIA Container Toolkit's hook refuses to
// start it on a host whose driver supports less, before the engine runs.
export default defineSignature({
  id: 'container-cuda-newer-than-driver',
  title: "the image needs a newer CUDA than the host's NVIDIA driver supports",
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['requirement error'],
  match: {
    exception: null,
    message: /nvidia-container-cli: requirement error: unsatisfied condition: (?<need>cuda\s*>=\s*[\d.]+)/,
  },
  explanation:
    "The image was built for a CUDA release ({need}) newer than the one the host's NVIDIA driver supports, " +
    'and the NVIDIA Container Toolkit refused to start it: the server never ran. `nvidia-smi` on the host shows the highest CUDA its driver supports.',
  fix: "Update the host's NVIDIA driver to one that supports {need}, or run an image tag built for an older CUDA",
  action: [
    { kind: 'step', text: "See the highest CUDA the host's driver supports (top right of its table):" },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    {
      kind: 'step',
      text: "Update the host's NVIDIA driver to one that supports the image's CUDA, or run an image tag built for the CUDA the driver supports.",
    },
  ],
  references: ['https://docs.nvidia.com/deploy/cuda-compatibility/'],
});
