/**
 * A ggml assertion whose condition names nothing (`GGML_ASSERT(ok) failed`, `GGML_ASSERT: ggml-opencl.cpp:1747:
 * false`, `GGML_ASSERT: f.cpp:9: !"SYCL error"`): the error line before it says what failed.
 */
export const ASSERTS_NOTHING =
  /GGML_ASSERT\(\s*!?\w+\s*\) failed|GGML_ASSERT: \S+: (?:false|0|!?"[^"]*")\s*$/;
