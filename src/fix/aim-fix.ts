import type { Diagnosis, SignatureMatch } from '../types/diagnosis.js';
import type { FixPlace, FixTarget, RenderedFix } from './fix-action.js';
import { renderFix } from './render-fix.js';
import {
  aimInstallText,
  describeEnvironment,
  findCrashedEnvironment,
  type CrashedEnvironment,
  type EnvironmentFacts,
} from './target-fix.js';

/** What the environment's files say; read by the caller at the edge (environment/read-crashed-environment.ts). */
export type ReadFacts = (environment: CrashedEnvironment) => EnvironmentFacts;

const UNKNOWN: ReadFacts = () => ({ installer: null, cudaTag: null });

/**
 * The diagnosis with its fix aimed: at the environment in the traceback (its files read by `readFacts`), the
 * place the log was read from, and the engine that crashed. Every command that prints a fix goes through
 * here, so they all print the same one.
 */
export function aimFix(diagnosis: Diagnosis, place: FixPlace, readFacts: ReadFacts = UNKNOWN): Diagnosis {
  const signature = diagnosis.signature;
  if (signature === null) return diagnosis;
  const crashed = findCrashedEnvironment(diagnosis);
  const target: FixTarget = {
    place,
    environment: crashed === null ? null : describeEnvironment(crashed, readFacts(crashed)),
    engine: diagnosis.engine,
    unit: diagnosis.service?.unit ?? null,
  };
  return { ...diagnosis, signature: aimSignature(signature, target) };
}

/** The signature's fix for the target: its actions rendered, else its words with each install aimed. */
export function aimSignature(signature: SignatureMatch, target: FixTarget): SignatureMatch {
  const { fix: _fix, tryNow: _tryNow, verify: _verify, ...rest } = signature;
  const rendered = signature.action === undefined ? null : renderFix(signature.action, target);
  if (rendered !== null) return withRendered(rest, rendered, signature.alternative, target);
  const environment = target.environment;
  const aimed = aimInstallText(signature.fix, environment, target.place);
  const alternative =
    signature.alternative === undefined
      ? undefined
      : (aimInstallText(signature.alternative, environment, target.place) ?? signature.alternative);
  const verify =
    aimed === null ? undefined : renderFix([{ kind: 'install', requirements: ['x'] }], target)?.verify;
  return {
    ...rest,
    fix: aimed ?? signature.fix,
    ...(verify === undefined ? {} : { verify }),
    ...(alternative === undefined ? {} : { alternative }),
  };
}

function withRendered(
  rest: Omit<SignatureMatch, 'fix' | 'tryNow' | 'verify'>,
  rendered: RenderedFix,
  alternative: string | undefined,
  target: FixTarget,
): SignatureMatch {
  const environment = target.environment;
  const aimedAlternative =
    alternative === undefined
      ? alternative
      : (aimInstallText(alternative, environment, target.place) ?? alternative);
  return {
    ...rest,
    fix: rendered.lines.join('\n'),
    ...(rendered.tryNow === undefined ? {} : { tryNow: rendered.tryNow }),
    ...(rendered.verify === undefined ? {} : { verify: rendered.verify }),
    ...(aimedAlternative === undefined ? {} : { alternative: aimedAlternative }),
  };
}
