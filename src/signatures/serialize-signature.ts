import type { FixAction } from '../fix/fix-action.js';
import type { Signature } from './define-signature.js';

/** A signature as plain JSON data; patterns are written `/source/flags`, the form user rule files accept. */
export interface SerializedSignature {
  id: string;
  title: string;
  category: string;
  engines: string[];
  keywords: string[];
  match: Record<string, string | null>;
  explanation: string;
  fix: string;
  action?: FixAction[];
  alternative?: string;
  references: string[];
  weight?: number;
  blame?: 'candidate' | 'context';
  raises?: string;
}

export function serializeSignature(signature: Signature): SerializedSignature {
  const match: Record<string, string | null> = {};
  for (const field of ['exception', 'message', 'process', 'frames', 'context', 'captures'] as const) {
    const value = signature.match[field];
    if (value === undefined) continue;
    match[field] = value instanceof RegExp ? String(value) : value;
  }
  return {
    id: signature.id,
    title: signature.title,
    category: signature.category,
    engines: [...signature.engines],
    keywords: [...signature.keywords],
    match,
    explanation: signature.explanation,
    fix: signature.fix,
    ...(signature.action === undefined ? {} : { action: structuredClone(signature.action) }),
    ...(signature.alternative === undefined ? {} : { alternative: signature.alternative }),
    references: [...signature.references],
    ...(signature.weight === undefined ? {} : { weight: signature.weight }),
    ...(signature.blame === undefined ? {} : { blame: signature.blame }),
    ...(signature.raises === undefined ? {} : { raises: signature.raises }),
  };
}
