import { defineWindowsCrash } from '../windows-crash.js';

export default defineWindowsCrash({
  id: 'windows-stack-overflow',
  status: 0xc00000fd,
  title: 'a native crash on Windows: stack overflow (0xC00000FD)',
  explanation:
    "Exit status 0xC00000FD is STATUS_STACK_OVERFLOW: a thread used up its stack, through deep recursion or a large array on the stack in native code. A thread's stack on Windows (1 MB by default) is smaller than on Linux (8 MB), so code that runs on Linux can overflow here.",
});
