import type { Frame } from '../../parsing/traceback.js';
import { anyOf } from './any-of.js';

/**
 * What a traceback was doing when it was raised, read from its frames: starting the server (building the
 * model, loading weights, initialising the engine, compiling kernels, parsing arguments) or answering a
 * request. Functions and files of every engine and of the libraries they call, never one engine's path.
 */
export type Phase = 'start-up' | 'request';

const START_UP_FUNCTIONS: readonly RegExp[] = [
  /^(?:load_model|load_weights|_load_weights|load_state_dict|from_pretrained|get_model|_initialize_model)$/,
  /^(?:init_device|init_worker|_init_executor|_init_workers_ray|initialize_engine|_initialize_kv_caches|initialize_cache)$/,
  /^(?:determine_available_memory|determine_num_available_blocks|profile_run|_dummy_run|capture_model|warm_?up\w*)$/,
  /^(?:build_async_engine_client\w*|from_engine_args|from_vllm_config|create_engine_config|launch_server)$/,
  /^(?:parse_args|init_model_worker|_init_model_runner|init_memory_pool|init_cublas|init_torch_distributed)$/,
  /^(?:build_model|create_model|setup_model|_build_engine|build_engine|load_engine|compile\w*|_jit_compile|jit_load|_write_ninja_file_and_compile\w*)$/,
];

const START_UP_FILES: readonly RegExp[] = [
  /(?:model_loader|weight_utils|safetensors|modeling_utils|configuration_utils|auto_factory|cpp_extension|jit\/core|jit\/env)\b/,
  /\/(?:arg_utils|config|engine_args|server_args)\.py$/,
];

const REQUEST_FUNCTIONS: readonly RegExp[] = [
  /^(?:create_chat_completion|create_completion|create_embedding|chat_completion_stream_generator|completion_stream_generator|generate|handle_request|_handle_request|v1_chat_completions|v1_completions|openai_v1_\w+|generate_request)$/,
];

const REQUEST_FILES: readonly RegExp[] = [
  /\/(?:starlette|fastapi|uvicorn\/protocols|aiohttp\/web_protocol)\//,
  /\/entrypoints\/openai\/serving_\w+\.py$|\/openai_api\/serving_\w+\.py$|\/http_server\.py$/,
];

const isStartUpFunction = anyOf(START_UP_FUNCTIONS);
const isStartUpFile = anyOf(START_UP_FILES);
const isRequestFunction = anyOf(REQUEST_FUNCTIONS);
const isRequestFile = anyOf(REQUEST_FILES);

/**
 * The phase a traceback's frames show; a request handler's frames decide first, since it calls anything.
 * A request handler's file being imported (`http_server.py ... in <module>`) handles no request.
 */
export function phaseOf(frames: readonly Frame[]): Phase | null {
  const handles = (f: Frame): boolean =>
    (isRequestFile(f.file) && f.function !== '<module>') || isRequestFunction(f.function);
  if (frames.some(handles)) return 'request';
  if (frames.some((f) => isStartUpFunction(f.function) || isStartUpFile(f.file))) return 'start-up';
  return null;
}
