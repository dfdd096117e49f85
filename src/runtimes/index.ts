import type { FailureLine, RuntimeGrammar } from './define-grammar.js';
import python from './python/grammar.js';
import cpp from './cpp/grammar.js';
import gpu from './gpu/grammar.js';
import nccl from './nccl/grammar.js';
import ucx from './ucx/grammar.js';
import mpi from './mpi/grammar.js';
import ray from './ray/grammar.js';
import rust from './rust/grammar.js';
import go from './go/grammar.js';
import loader from './loader/grammar.js';
import signals from './signals/grammar.js';
import cli from './cli/grammar.js';
import dotnet from './dotnet/grammar.js';
import kubernetes from './kubernetes/grammar.js';
import triton from './triton/grammar.js';

/** Every runtime's grammar; a new runtime is a folder here and one line in this list. */
export const RUNTIME_GRAMMARS: readonly RuntimeGrammar[] = [
  python,
  cpp,
  gpu,
  nccl,
  ucx,
  mpi,
  ray,
  rust,
  go,
  loader,
  signals,
  cli,
  dotnet,
  kubernetes,
  triton,
];

/** All runtimes' failure lines, in the order they are tried (their rank). */
export const FAILURE_LINES: readonly FailureLine[] = RUNTIME_GRAMMARS.flatMap((g) => g.lines).sort(
  (a, b) => a.rank - b.rank,
);

export type { FailureLine, RuntimeGrammar } from './define-grammar.js';
