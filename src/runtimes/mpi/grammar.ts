import { defineGrammar } from '../define-grammar.js';

/**
 * MPI (Open MPI under TensorRT-LLM's and Triton's multi-GPU launchers): its help boxes say in prose that a
 * step of its start failed (`It looks like orte_init failed for some reason`), and that a rank aborted.
 */
export default defineGrammar({
  runtime: 'mpi',
  lines: [
    {
      id: 'mpi-init-failed',
      rank: 216,
      pattern:
        /\bIt looks like (?:orte_init|opal_init|MPI_INIT|ompi_mpi_init|ompi_rte_init) failed for some reason/,
      fatal: true,
      strength: 26,
    },
    // Open MPI's runtime layers report their own errors with the place in their source: `[worker:15806] PRTE
    // ERROR: Bad parameter in file base/odls_base_default_fns.c at line 962` (Open MPI 5's PRRTE launching a
    // rank), `ORTE_ERROR_LOG: ...` (Open MPI 4's).
    {
      id: 'mpi-runtime-error',
      rank: 217,
      pattern: /^\[[\w.-]+:\d+\] ((?:PRTE|ORTE|PMIX|OPAL) ERROR: .+|ORTE_ERROR_LOG: .+)/,
      fatal: true,
      strength: 38,
      message: (m) => m[1] ?? '',
    },
    // The help box's detail for developers names the step that failed and what it returned:
    // `  ompi_mpi_init: ompi_rte_init failed` then `  --> Returned "No permission" (-17) instead of "Success" (0)`.
    {
      id: 'mpi-step-failed',
      rank: 215,
      pattern: /^\s*((?:ompi|orte|opal|pmix)_\w+: (?:ompi|orte|opal|pmix)_\w+ failed)\s*$/,
      fatal: true,
      strength: 36,
      message: (m) => m[1] ?? '',
    },
    // Its other detail: a step in words (`  getting local rank failed`), then what it returned
    // (`  --> Returned value No permission (-17) instead of ORTE_SUCCESS`): the step is the message.
    {
      id: 'mpi-returned-instead-of-success',
      rank: 212,
      pattern: /^\s*--> Returned (?:value )?.+ instead of (?:\w+_SUCCESS|"Success")/,
      fatal: true,
      strength: 35,
      messageOnLineBefore: true,
    },
    { id: 'mpi-abort', rank: 218, pattern: /\bMPI_ABORT was invoked on rank \d+/, fatal: true, strength: 30 },
    // The shared-memory transport's single copy from a peer failed (`Read -1, expected 33554432, errno = 14`:
    // EFAULT from process_vm_readv); the segmentation fault a rank reports after it is its consequence.
    {
      id: 'mpi-vader-read-failed',
      rank: 219,
      pattern: /\bRead -1, expected \d+, errno = \d+/,
      fatal: true,
      strength: 40,
      crash: true,
    },
  ],
});
