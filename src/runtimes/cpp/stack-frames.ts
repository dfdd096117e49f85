/**
 * A line of the stack a native error prints after its message: PyTorch's c10::Error
 * (`Exception raised from throwTimeoutError at .../socket.cpp:1025 (most recent call first):` then
 * `frame #0: ...`), a debugger's (`#3  0x00007f... in ggml_abort ()`) and glibc's backtrace
 * (`libggml.so(ggml_abort+0xd8)[0x7455f847d6b8]`) and boost's stacktrace (Triton's ` 3# 0x00007F9D4F03F199 in
 * /opt/tritonserver/lib/libtritonserver.so`). Such lines belong to the error above them: a log that
 * ends in them ends at that error, not after it.
 */
export const STACK_FRAME_LINE =
  /^\s*(?:frame #\d+: |Exception raised from \S+ at \S+ \(most recent call first\):|#\d+\s+0x[0-9a-f]+ in |\d+# 0x[0-9A-Fa-f]+ in |\S+\([\w.+]*\+0x[0-9a-f]+\)\s*\[0x[0-9a-f]+\]\s*$)/;
