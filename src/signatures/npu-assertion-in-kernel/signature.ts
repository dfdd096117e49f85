import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'npu-assertion-in-kernel',
  title: 'the Ascend C kernel assertion `{assertion}` failed in {file}',
  category: 'illegal-memory-access',
  engines: ['vllm', 'sglang', 'lmdeploy'],
  keywords: ['acl stream synchronize failed'],
  match: {
    message: /ACL stream synchronize failed/,
    // An Ascend C kernel's assert prints its check on the device before torch_npu's next synchronize
    // reports that a kernel failed; a terminal may wrap the check onto the next line.
    context:
      /\[ASSERT\] \[CANN_VERSION : [^\]\n]{1,40}\]\[TimeStamp : \d+\] \S{0,300}\/(?<file>[\w.-]{1,120}):\d+: Assertion `(?<assertion>[^'\n]{1,200})/,
  },
  blame: 'context',
  explanation:
    'The check `{assertion}` inside an Ascend C kernel ({file}) failed on the NPU, and the error that reached ' +
    'Python ("ACL stream synchronize failed") only reports it, at the next call that waited for the device. ' +
    'The assertion says what was out of range: most often an index past a tensor (a token id, a block or a ' +
    'position beyond what the kernel was given).',
  fix: 'Read the assertion for the sizes that disagree; look for a fix of the kernel or of the engine code that feeds it in a newer vllm-ascend (or CANN) release, and report it with the request that triggers it',
  alternative:
    'Rerun with ASCEND_LAUNCH_BLOCKING=1 to get the traceback of the call that launched the kernel.',
  references: ['https://github.com/vllm-project/vllm-ascend/issues/1682'],
});
