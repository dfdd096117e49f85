import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tensorrt-engine-built-for-other-gpu',
  title: 'TensorRT engine was built for a different GPU architecture',
  category: 'gpu-arch-unsupported',
  engines: ['trtllm'],
  keywords: ['generated on an incompatible device'],
  match: {
    message:
      /engine plan file is generated on an incompatible device, expecting compute (?<built>\d+\.\d+) got compute (?<here>\d+\.\d+)/,
  },
  explanation:
    'A TensorRT engine contains kernels compiled and tuned for the compute capability of the GPU it was built on ' +
    '({built}), and it will not deserialize on a GPU of another one ({here}). The engine directory was built on ' +
    'another machine or GPU type (a CI box, a different cloud instance, an A100 engine moved to an L40S), so the ' +
    'runtime stops and later errors only report that the engine is missing.',
  fix: 'Rebuild the engine on a GPU of compute capability {here}: rerun `trtllm-build --checkpoint_dir <ckpt> --output_dir <engine_dir> ...` on this machine (or one with the same GPU model).',
  alternative:
    "Use TensorRT-LLM's PyTorch backend (`trtllm-serve <hf_model>` / `LLM(model=<hf_model>)`), which needs no " +
    'prebuilt engine, or keep one engine directory per GPU type in your deployment.',
  references: [
    'https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html',
    'https://nvidia.github.io/TensorRT-LLM/reference/support-matrix.html',
  ],
});
