import type { Traceback } from '../parsing/traceback.js';

/**
 * Where an exception with no words of its own (`raise NotImplementedError`) was raised, and the call that
 * reached it: `get_device_capability() (interface.py:28): raise NotImplementedError, called by: if
 * current_platform.get_device_capability()[0] < 8:`. Its class and its caller are all it says.
 */
export function bareRaiseSite(traceback: Traceback): string {
  const [caller, raiser] = traceback.frames.slice(-2);
  const code = raiser?.code ?? '';
  if (raiser === undefined || !BARE_RAISE.test(code)) return '';
  const site = `${raiser.function}() (${raiser.file.slice(raiser.file.lastIndexOf('/') + 1)}:${raiser.line}): ${code}`;
  return caller?.code ? `${site}, called by: ${caller.code}` : site;
}

/** A raise that gives its class no words: `raise TimeoutError`, `raise asyncio.TimeoutError from exc_val`. */
const BARE_RAISE = /^raise [\w.]+(?:\(\))?(?: from \w+)?$/;

/** A message bareRaiseSite wrote: the exception itself said nothing. */
const BARE_RAISE_SITE = /^\w+\(\) \([^()]*:\d+\): raise [\w. ()]+(?:, called by: .*)?$/;

/** An object's default repr (a KeyError keyed by an object: `<vllm.config.ModelConfig object at 0x7f...>`). */
const OBJECT_REPR = /^<[\w.]+ object at 0x[0-9a-fA-F]+>$/;

/**
 * Whether an exception's message is its own words, not nothing, only where it was raised, or only an
 * object's address.
 */
export const saysNothing = (message: string): boolean => {
  const text = message.trim();
  return text === '' || BARE_RAISE_SITE.test(text) || OBJECT_REPR.test(text);
};
