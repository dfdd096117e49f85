import { defineSignature } from '../define-signature.js';

// The driver's word comes before the application's (gpu/grammar.ts's nvrm-xid is strong): a GPU that left the bus or lost memory to uncorrectable
// ECC errors fails every CUDA call after it, so the CUDA error that follows is its symptom. Xids an
// application causes itself (13, 31, 43, 45) are left to the application's own error.
export default defineSignature({
  id: 'gpu-hardware-fault',
  title: 'the NVIDIA driver reported a GPU hardware fault',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['nvrm'],
  match: {
    exception: null,
    message:
      /NVRM: (?:Xid \(PCI:(?<pci>[\w:.]+)\): (?<xid>48|6[2-4]|74|79|9[2-5]|119|12[0-3]|140)\b|.*fallen off the bus)/,
  },
  explanation:
    "The NVIDIA kernel driver logged a fault of the GPU itself, not of the program: Xid 79 or `fallen off the bus` (the GPU stopped answering on PCIe: power, heat, a riser or the slot), 48, 94 and 95 (uncorrectable ECC errors in its memory), 62-64 and 92 (ECC page retirement and row remapping), 74 (an NVLink error), 119 and 120 (the GPU's own firmware, GSP, timed out). Every CUDA call after it fails, so the errors the server logged next are its symptoms. The GPU usually needs a reset, the node often a drain and a hardware check.",
  fix: 'Check the GPU: `nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER` and `nvidia-smi -q | grep -i -e retired -e remap`, the kernel log around the Xid (`journalctl -k | grep -i -e xid -e nvrm`); then reset it (`nvidia-smi -r -i GPU`) or reboot, and if the Xid comes back, drain the node and have the GPU checked.',
  action: [
    { kind: 'command', argv: ['nvidia-smi', '-q', '-d', 'ECC,PAGE_RETIREMENT,ROW_REMAPPER'], where: 'host' },
    {
      kind: 'step',
      text: 'Reset the GPU or reboot the node; if the Xid returns, drain the node and have the GPU checked (power, cooling, seating, the GPU itself).',
    },
  ],
  references: ['https://docs.nvidia.com/deploy/xid-errors/index.html'],
});
